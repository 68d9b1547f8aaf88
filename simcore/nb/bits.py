"""Bit helpers shared by the kernels (popcount and lowest-bit tricks live here, once)."""

import numba as nb
import numpy as np
from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic

_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@nb.njit(cache=True)
def popcount(x):
    """Number of set bits of a uint64 (SWAR; numba has no portable intrinsic)."""
    x = np.uint64(x)
    x = x - ((x >> np.uint64(1)) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return np.int64((x * _H01) >> np.uint64(56))


@nb.njit(cache=True)
def lowest_bit_index(x):
    """Index of the lowest set bit of a non-zero uint64."""
    x = np.uint64(x)
    return popcount((x & (~x + np.uint64(1))) - np.uint64(1))


@nb.njit(cache=True, inline="always")
def sum_at_bits(bits, ary, start):
    """The sum of ``ary[start + k]`` over the set bits k of ``bits`` (a kind set), visiting only
    the set bits (inlined: no reference count for ``ary``)."""
    x = np.uint64(bits)
    n = np.int64(0)
    while x:
        n += ary[start + lowest_bit_index(x)]
        x &= x - np.uint64(1)
    return n


@intrinsic
def float_from_bits(typingctx, x):
    """The float64 whose IEEE bits are the int64 ``x`` (a float kept in an int64 array, as
    ``np.float64(v).view(np.int64)`` stores it): a reinterpretation, no conversion."""
    if isinstance(x, types.Integer) and x.bitwidth == 64:
        return types.float64(x), lambda context, builder, sig, args: builder.bitcast(
            args[0], ir.DoubleType())
    return None


@intrinsic
def bits_from_float(typingctx, x):
    """The int64 holding the IEEE bits of the float64 ``x`` (:func:`float_from_bits` undoes it)."""
    if isinstance(x, types.Float) and x.bitwidth == 64:
        return types.int64(x), lambda context, builder, sig, args: builder.bitcast(
            args[0], ir.IntType(64))
    return None


@intrinsic
def load_u64(typingctx, ary, i):
    """The uint64 of the eight bytes ``ary[i:i + 8]`` of a C-contiguous 1-D array of 1-byte
    items (bool or uint8), little-endian as this machine stores it: one unaligned load, where
    ``ary[lo:hi].view(np.uint64)`` builds an array (numba's ``_change_dtype``, about 2% of
    MOMOJAN value rounds). No bounds check: ``i + 8 <= len(ary)`` is the caller's to keep."""
    if not (isinstance(ary, types.Array) and ary.ndim == 1 and ary.layout == "C"
            and ary.dtype in (types.boolean, types.uint8, types.int8)
            and isinstance(i, types.Integer)):
        return None

    def codegen(context, builder, sig, args):
        a = context.make_array(sig.args[0])(context, builder, value=args[0])
        base = builder.bitcast(a.data, ir.IntType(8).as_pointer())
        # gep reads its index as signed: an unsigned or narrower index is widened to intp first
        # (a uint8 200 taken as is would have read a[-56])
        ptr = builder.gep(base, [context.cast(builder, args[1], sig.args[1], types.intp)])
        word = builder.load(builder.bitcast(ptr, ir.IntType(64).as_pointer()), align=1)
        return word
    return types.uint64(ary, i), codegen


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
