"""Copies between a strided PyOpenCL array and a contiguous one, on the device.

PyOpenCL copies only contiguous arrays, and clgemm reads in place only the layouts of _layout.py;
an operand in any other layout (every other element, say) is gathered into a C-ordered array
first, and a result for such an `out` is computed into one and scattered back into `out`. Each
copy is one kernel on the array's queue, after the array's pending events.
"""

import numpy as np

# One program per context and element size; the kernel moves elements as unsigned integers of
# that size, so it serves every type.
_SOURCE = r"""
__kernel void move(__global ELEMENT* strided, const long base, __global ELEMENT* dense, const ulong count,
                   __global const long* sizes, __global const long* steps, const int dims, const int gather) {
  const ulong i = get_global_id(0);
  if (i >= count) return;
  ulong rest = i;
  long at = base;
  for (int d = dims - 1; d >= 0; --d) {
    at += (long)(rest % (ulong)sizes[d]) * steps[d];
    rest /= (ulong)sizes[d];
  }
  if (gather) dense[i] = strided[at]; else strided[at] = dense[i];
}
"""
_ELEMENTS = {1: "uchar", 2: "ushort", 4: "uint", 8: "ulong", 16: "ulong2"}
_programs = {}


def _kernel(context, itemsize):
    import pyopencl as cl

    key = (context.int_ptr, itemsize)
    if key not in _programs:
        _programs[key] = cl.Program(context, _SOURCE).build(options=[f"-DELEMENT={_ELEMENTS[itemsize]}"])
    # A kernel object of its own for each copy: two threads never set each other's arguments.
    return cl.Kernel(_programs[key], "move")


def _move(queue, strided, dense, gather: bool):
    import pyopencl as cl

    itemsize = strided.dtype.itemsize
    if strided.offset % itemsize or any(s % itemsize for s in strided.strides):
        raise ValueError(f"clgemm.matmul: an array of shape {tuple(strided.shape)} with strides "
                         f"{tuple(strided.strides)} and offset {strided.offset} is not made of whole elements")
    count = int(np.prod(strided.shape))
    if count == 0:
        return
    sizes = np.array(strided.shape, np.int64)
    steps = np.array([s // itemsize for s in strided.strides], np.int64)
    flags = cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR
    sizes_buffer = cl.Buffer(queue.context, flags, hostbuf=sizes)
    steps_buffer = cl.Buffer(queue.context, flags, hostbuf=steps)
    waits = [*strided.events, *dense.events]
    event = _kernel(queue.context, itemsize)(
        queue, (count,), None, strided.base_data, np.int64(strided.offset // itemsize), dense.base_data,
        np.uint64(count), sizes_buffer, steps_buffer, np.int32(len(sizes)), np.int32(gather), wait_for=waits or None)
    (dense if gather else strided).add_event(event)


def gathered(queue, x):
    """A C-ordered copy of the PyOpenCL array x."""
    import pyopencl.array as cla

    dense = cla.empty(queue, x.shape, x.dtype)
    _move(queue, x, dense, gather=True)
    return dense


def scatter(queue, dense, out):
    """Writes the C-ordered array dense into the elements of out, and nothing else."""
    _move(queue, out, dense, gather=False)
