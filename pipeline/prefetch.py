"""``prefetch(array, i)``: a hint, inside numba kernels, that ``array.flat[i]`` will be read soon.

Kernels that read many independent elements of tables far larger than the caches (the strategy lab's
game lanes) first ask for every line they will need, then read them: a prefetch never waits for its
line, so the processor keeps all those misses in flight, where plain loads stall as soon as the
reorder buffer fills with loads waiting on memory. A prefetch changes no value; ``i`` must be a valid
flat index of a C-contiguous 1-d array (no bounds check).
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

_I8P = ir.IntType(8).as_pointer()
_I32 = ir.IntType(32)


@intrinsic
def prefetch(typingctx, array, index):
    """LLVM's ``llvm.prefetch`` of ``&array[index]``: read, high temporal locality, data cache."""
    sig = types.void(array, index)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [_I8P, _I32, _I32, _I32]),
                                            "llvm.prefetch.p0i8")
        builder.call(fn, [builder.bitcast(ptr, _I8P), _I32(0), _I32(3), _I32(1)])
        return context.get_dummy_value()

    return sig, codegen
