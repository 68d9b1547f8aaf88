"""A mend to numba's dead-code elimination: writes into a state unpacked from a tuple are kept.

numba removes a store into an array as dead when the array is a temporary no later statement
reads, unless its alias analysis (``numba.core.ir_utils.find_potential_aliases``) links it to an
argument of the function. That analysis follows ``x = args[0]`` but not tuple unpacking,
``s, ra, t = ctx`` (numba's ``exhaust_iter``), so in a function that unpacks a state from a
tuple argument, ``s.hand[seat, 5] = tile`` (a store through the temporary ``s.hand``) is deleted
whenever the typed pipeline runs its dead-code elimination, which it does after inlining an
``@overload(..., inline="always")`` (``simcore.nb.search.searching``). Every search rollout
in Sparrow (``resume(ctx, action)``, whose state comes out of the tuple ``ctx``, inlining the
round loop) played with its seats' draws never reaching their hands: 223,716 lost stores in 4
games. The policies' kernels never met it (their records were unchanged by this mend).

:func:`install` makes the analysis treat ``a, b = t`` as ``a = t[0]; b = t[1]``: the unpacked
values alias the tuple, and so the argument. It is installed by :mod:`simcore.nb.unliteral`,
which every compiled module imports, before anything compiles (machine code cached before it
came is dropped by :mod:`simcore.nb.cache_guard`, which watches ``simcore/nb``);
``tests/harness/test_nb_mends.py`` holds the smallest programs that showed the loss, so a numba
that changes the analysis fails a test rather than a game.
"""

from __future__ import annotations

from numba.core import ir, ir_utils

_ORIGINAL = ir_utils.find_potential_aliases


def _unpacking_aliases(blocks, args, typemap, func_ir, alias_map=None, arg_aliases=None):
    seed = set(arg_aliases if arg_aliases is not None else
               (a for a in args if not ir_utils.is_immutable_type(a, typemap)))
    unpacks = [(i.target.name, i.value.value.name) for bl in blocks.values() for i in bl.body
               if isinstance(i, ir.Assign) and isinstance(i.value, ir.Expr)
               and i.value.op == "exhaust_iter"]
    while True:   # numba's analysis again with each unpack of an argument's alias seeded as one
        am = {k: set(v) for k, v in alias_map.items()} if alias_map is not None else None
        am, aa = _ORIGINAL(blocks, args, typemap, func_ir, am, set(seed))
        grown = {lhs for lhs, src in unpacks if lhs not in seed
                 and (src in aa or any(a in aa for a in am.get(src, ())))}
        if not grown:
            if alias_map is not None:   # a caller may read the maps it passed, not the result
                alias_map.clear()
                alias_map.update(am)
            if arg_aliases is not None:
                arg_aliases.update(aa)
            return am, aa
        seed |= grown


# numba's parfor and array-analysis modules import the function by name and keep the original:
# this project compiles no parallel=True code.


def install() -> bool:
    """Put the mend in place (once); True when it was not yet."""
    if ir_utils.find_potential_aliases is _unpacking_aliases:
        return False
    ir_utils.find_potential_aliases = _unpacking_aliases
    return True
