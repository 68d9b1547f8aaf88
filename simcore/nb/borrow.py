"""``borrowed``: the same arrays without their owner, so that compiled callees stop counting
references to them.

numba keeps every array's owner (its ``meminfo``) alive by reference counting: a compiled
function that receives an array increments the owner's count on entry and decrements it on every
way out, with an atomic instruction inside a call numba will not inline (``NRT_incref``,
``NRT_decref``). Its pruning pass removes the pairs only within simple functions, so arrays
passed down a call tree pay two atomic operations per call. In P-style's engine they were 21% of
a greedy match's samples in a sampling profile; with ``borrowed`` 5%, and greedy rounds/s rose
4-7% (2 and 3 seats, alternated processes, records bit-identical). MOMOJAN's engine showed 15%
in the same profile but no measurable gain (mostly sampling skid onto the atomic instructions),
so it does not use it. Emoji's round loop also hands its policy call's observation row, mask,
params row and stream over borrowed (the state owns them): greedy x4 1.07x faster.

``borrowed(x)`` returns ``x`` (an array, or a tuple or named tuple of arrays, nested) with every
array's owner pointer set to NULL, which ``NRT_incref``/``NRT_decref`` test for and return at
once; anything else (a structref state, which callees count once anyway) comes back as itself
with its reference counted. Call it once at the entry of a compiled loop on arguments the caller keeps alive for the
whole call (the engines' ``play_games``/``play_matches``): never on an array the function
allocates and may return or store, whose memory would then never be freed, or freed early.
Types are unchanged, so callees compile once whatever they receive.
"""

from numba.core import cgutils, types
from numba.extending import intrinsic


def _without_owner(context, builder, ty, value):
    if isinstance(ty, types.Array):
        ary = context.make_array(ty)(context, builder, value=value)
        ary.meminfo = cgutils.get_null_value(ary.meminfo.type)
        ary.parent = cgutils.get_null_value(ary.parent.type)
        return ary._getvalue()
    if isinstance(ty, types.BaseTuple):
        out = value
        for i, member_ty in enumerate(ty.types):
            member = _without_owner(context, builder, member_ty, builder.extract_value(value, i))
            out = builder.insert_value(out, member, i)
        return out
    # anything else (a structref state: one owner for all its arrays, counted once a call) is
    # returned as itself, owning a new reference: the caller's variable now holds it, and numba
    # releases it when the variable dies (returned without the count, it was freed early)
    context.nrt.incref(builder, ty, value)
    return value


@intrinsic
def borrowed(typingctx, value):
    """``value`` with every array in it (arrays, tuples, named tuples) not owning its memory."""
    def codegen(context, builder, signature, args):
        return _without_owner(context, builder, signature.args[0], args[0])
    return value(value), codegen


@intrinsic
def writable(typingctx, ary):
    """``ary`` typed as a writable array. A module-level array a compiled function reads (a
    bot's default params row, ``_BEST_ROW``) is a constant numba types as read-only, so a
    callee that also receives ordinary arrays there compiles twice, once per type: the
    riichi2p bots' whole greedy policy was compiled twice. Pass such a constant as
    ``writable(_BEST_ROW)`` where only read; never write through it."""
    if not isinstance(ary, types.Array):
        return None

    def codegen(context, builder, signature, args):
        context.nrt.incref(builder, signature.args[0], args[0])
        return args[0]
    return ary.copy(readonly=False)(ary), codegen
