"""Small scratch arrays on the stack: ``stack_empty(N, np.int64)`` in compiled code is an array of
``N`` (a constant: a module-level int or a literal) uninitialised items in the calling
function's frame, where ``np.empty`` would ask numba's allocator for heap memory and count
references to it on every call. Two-player riichi's hand analysis made one such array at every
distance it computed.

The array lives as long as the function whose frame holds it (the compiled function the call
is in, after inlining): never return it, store it, or keep a view of it past that function.
"""

from __future__ import annotations

import numba as nb
from numba import carray
from numba.core import cgutils, types
from numba.extending import intrinsic


@intrinsic
def _frame_pointer(typingctx, n, dtype):
    if not isinstance(n, types.IntegerLiteral) or not isinstance(dtype, types.NumberClass):
        return None
    item = dtype.dtype

    def codegen(context, builder, signature, args):
        return cgutils.alloca_once(builder, context.get_data_type(item), size=n.literal_value)
    return types.CPointer(item)(n, dtype), codegen


@intrinsic
def _frame_pointer_2d(typingctx, n, m, dtype):
    if not (isinstance(n, types.IntegerLiteral) and isinstance(m, types.IntegerLiteral)
            and isinstance(dtype, types.NumberClass)):
        return None
    item = dtype.dtype

    def codegen(context, builder, signature, args):
        return cgutils.alloca_once(builder, context.get_data_type(item),
                                   size=n.literal_value * m.literal_value)
    return types.CPointer(item)(n, m, dtype), codegen


@nb.njit(inline="always")
def stack_empty(n, dtype):
    """``n`` uninitialised items of ``dtype`` in the caller's frame (module docstring)."""
    return carray(_frame_pointer(n, dtype), n)


@nb.njit(inline="always")
def stack_empty_2d(n, m, dtype):
    """``n`` x ``m`` uninitialised items of ``dtype`` (C order) in the caller's frame."""
    return carray(_frame_pointer_2d(n, m, dtype), (n, m))
