"""The bundled scenarios (package data; installed as ``simcore.scenarios``)."""
