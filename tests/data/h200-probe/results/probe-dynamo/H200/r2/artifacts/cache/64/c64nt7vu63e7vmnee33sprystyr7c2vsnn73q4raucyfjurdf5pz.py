# AOT ID: ['2_inference']
from ctypes import c_void_p, c_long, c_int
import torch
import math
import random
import os
import tempfile
from math import inf, nan
from cmath import nanj
from torch._inductor.hooks import run_intermediate_hooks
from torch._inductor.utils import maybe_profile
from torch._inductor.codegen.memory_planning import _align as align
from torch import device, empty_strided
from torch._inductor.async_compile import AsyncCompile
from torch._inductor.select_algorithm import extern_kernels
import triton
import triton.language as tl
from torch._inductor.runtime.triton_heuristics import start_graph, end_graph
from torch._C import _cuda_getCurrentRawStream as get_raw_stream

aten = torch.ops.aten
inductor_ops = torch.ops.inductor
_quantized = torch.ops._quantized
assert_size_stride = torch._C._dynamo.guards.assert_size_stride
assert_alignment = torch._C._dynamo.guards.assert_alignment
empty_strided_cpu = torch._C._dynamo.guards._empty_strided_cpu
empty_strided_cpu_pinned = torch._C._dynamo.guards._empty_strided_cpu_pinned
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda
empty_strided_xpu = torch._C._dynamo.guards._empty_strided_xpu
empty_strided_mtia = torch._C._dynamo.guards._empty_strided_mtia
reinterpret_tensor = torch._C._dynamo.guards._reinterpret_tensor
alloc_from_pool = torch.ops.inductor._alloc_from_pool
async_compile = AsyncCompile()
empty_strided_p2p = torch._C._distributed_c10d._SymmetricMemory.empty_strided_p2p


# kernel path: /tmp/probe-run/lanes/0.0.0/mints/probe-dynamo/H200/r2/a1/cache/inductor/kn/cknwuabqnyqznvh6u54pvbej76ggm4ulqnydvwj5jldspjzer62h.py
# Topologically Sorted Source Nodes: [conv2d], Original ATen: [aten.convolution]
# Source node to ATen node mapping:
#   conv2d => convolution
# Graph fragment:
#   %arg2_1 : Tensor "f16[1, 4, 64, 64][16384, 4096, 64, 1]cuda:0" = PlaceHolder[target=arg2_1]
#   %convolution : Tensor "f16[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%arg2_1, %arg0_1, %arg1_1, [1, 1], [1, 1], [1, 1], False, [0, 0], 1), kwargs = {})
#   return %buf0
triton_poi_fused_convolution_0 = async_compile.triton('triton_poi_fused_convolution_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 4, 'x': 4096}, tile_hint=TileHint.SQUARE,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp16', 'out_ptr0': '*fp16', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_convolution_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 32768, 'x': 32768}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_convolution_0(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 4
    xnumel = 4096
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = tl.full([XBLOCK], True, tl.int1)[None, :]
    x1 = xindex
    y0 = yindex
    tmp0 = tl.load(in_ptr0 + (x1 + 4096*y0), ymask, eviction_policy='evict_last').to(tl.float32)
    tl.store(out_ptr0 + (y0 + 4*x1), tmp0, ymask)
''', device_str='cuda')


# kernel path: /tmp/probe-run/lanes/0.0.0/mints/probe-dynamo/H200/r2/a1/cache/inductor/al/calkzmrdu5iws2bu7mevmvu3ymxq3u4vef2i4nl6gc2535qbmxje.py
# Topologically Sorted Source Nodes: [conv2d], Original ATen: [aten.convolution]
# Source node to ATen node mapping:
#   conv2d => convolution
# Graph fragment:
#   %arg0_1 : Tensor "f16[128, 4, 3, 3][36, 9, 3, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %convolution : Tensor "f16[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%arg2_1, %arg0_1, %arg1_1, [1, 1], [1, 1], [1, 1], False, [0, 0], 1), kwargs = {})
#   return %buf1
triton_poi_fused_convolution_1 = async_compile.triton('triton_poi_fused_convolution_1', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 512, 'x': 16}, tile_hint=TileHint.SQUARE,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp16', 'out_ptr0': '*fp16', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_convolution_1', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 18432, 'x': 9216}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_convolution_1(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 512
    xnumel = 9
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex
    y3 = yindex
    y0 = (yindex % 4)
    y1 = yindex // 4
    tmp0 = tl.load(in_ptr0 + (x2 + 9*y3), xmask & ymask, eviction_policy='evict_last').to(tl.float32)
    tl.store(out_ptr0 + (y0 + 4*x2 + 36*y1), tmp0, xmask & ymask)
''', device_str='cuda')


# kernel path: /tmp/probe-run/lanes/0.0.0/mints/probe-dynamo/H200/r2/a1/cache/inductor/z3/cz3a6svq2ejisy2dditmi4nlj2nl3uxdw4xai3khkwmpj3q7wrv5.py
# Topologically Sorted Source Nodes: [conv2d, group_norm], Original ATen: [aten.convolution, aten.native_group_norm]
# Source node to ATen node mapping:
#   conv2d => convolution
#   group_norm => convert_element_type, var_mean, view
# Graph fragment:
#   %buf2 : Tensor "f16[1, 128, 64, 64][524288, 1, 8192, 128]cuda:0" = PlaceHolder[target=buf2]
#   %arg1_1 : Tensor "f16[128][1]cuda:0" = PlaceHolder[target=arg1_1]
#   %convolution : Tensor "f16[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%arg2_1, %arg0_1, %arg1_1, [1, 1], [1, 1], [1, 1], False, [0, 0], 1), kwargs = {})
#   %convert_element_type : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convolution, torch.float32), kwargs = {})
#   %view : Tensor "f32[1, 8, 16, 4096][524288, 65536, 4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%convert_element_type, [1, 8, 16, 4096]), kwargs = {})
#   %var_mean : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%view, [2, 3]), kwargs = {correction: 0, keepdim: True})
#   return %buf3,%buf4,%buf5
triton_per_fused_convolution_native_group_norm_2 = async_compile.triton('triton_per_fused_convolution_native_group_norm_2', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 4096, 'r0_': 128},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp16', 'in_ptr1': '*fp16', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'out_ptr2': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_convolution_native_group_norm_2', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 2, 'num_store': 3, 'num_reduction': 5, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 98304, 'r0_': 0}}
)
@triton.jit
def triton_per_fused_convolution_native_group_norm_2(in_ptr0, in_ptr1, out_ptr0, out_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 4096
    r0_numel = 128
    R0_BLOCK: tl.constexpr = 128
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_2 = r0_index
    x0 = (xindex % 64)
    x1 = xindex // 64
    x3 = xindex
    tmp0 = tl.load(in_ptr0 + (2*x0 + 128*(((r0_2 + 128*x1) % 4096)) + ((r0_2 + 128*x1) // 4096)), None, eviction_policy='evict_last').to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (2*x0 + ((r0_2 + 128*x1) // 4096)), None, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp2.to(tl.float32)
    tmp4 = tl.broadcast_to(tmp3, [XBLOCK, R0_BLOCK])
    tmp6 = tl.broadcast_to(tmp4, [XBLOCK, R0_BLOCK])
    tmp8 = tl.sum(tmp6, 1)[:, None].to(tl.float32)
    tmp9 = tl.full([1, 1], 128, tl.int32)
    tmp10 = tmp9.to(tl.float32)
    tmp11 = (tmp8 / tmp10)
    tmp12 = tmp4 - tmp11
    tmp13 = tmp12 * tmp12
    tmp14 = tl.broadcast_to(tmp13, [XBLOCK, R0_BLOCK])
    tmp16 = tl.sum(tmp14, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (x3), tmp11, None)
    tl.store(out_ptr1 + (x3), tmp16, None)
    tl.store(out_ptr2 + (x3), tmp10, None)
''', device_str='cuda')


# kernel path: /tmp/probe-run/lanes/0.0.0/mints/probe-dynamo/H200/r2/a1/cache/inductor/g3/cg3mtdxxlcgvjwhfka4g24c44gfb5mbptet7fjrfosj53bpglzrs.py
# Topologically Sorted Source Nodes: [conv2d, group_norm], Original ATen: [aten.convolution, aten.native_group_norm]
# Source node to ATen node mapping:
#   conv2d => convolution
#   group_norm => convert_element_type, var_mean, view
# Graph fragment:
#   %buf3 : Tensor "f32[1, 8, 1, 1, 8, 64][4096, 8, 4096, 4096, 1, 64]cuda:0" = PlaceHolder[target=buf3]
#   %buf4 : Tensor "f32[1, 8, 1, 1, 8, 64][4096, 8, 4096, 4096, 1, 64]cuda:0" = PlaceHolder[target=buf4]
#   %buf5 : Tensor "f32[1, 8, 1, 1, 8, 64][4096, 8, 4096, 4096, 1, 64]cuda:0" = PlaceHolder[target=buf5]
#   %convolution : Tensor "f16[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%arg2_1, %arg0_1, %arg1_1, [1, 1], [1, 1], [1, 1], False, [0, 0], 1), kwargs = {})
#   %convert_element_type : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convolution, torch.float32), kwargs = {})
#   %view : Tensor "f32[1, 8, 16, 4096][524288, 65536, 4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%convert_element_type, [1, 8, 16, 4096]), kwargs = {})
#   %var_mean : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%view, [2, 3]), kwargs = {correction: 0, keepdim: True})
#   return %buf6,%buf7,%buf8
triton_per_fused_convolution_native_group_norm_3 = async_compile.triton('triton_per_fused_convolution_native_group_norm_3', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 64, 'r0_': 64},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'out_ptr2': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_convolution_native_group_norm_3', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 3, 'num_store': 3, 'num_reduction': 3, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 50688, 'r0_': 0}}
)
@triton.jit
def triton_per_fused_convolution_native_group_norm_3(in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 64
    r0_numel = 64
    R0_BLOCK: tl.constexpr = 64
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 64*r0_1), xmask, other=0.0)
    tmp1 = tl.load(in_ptr1 + (x0 + 64*r0_1), xmask, other=0.0)
    tmp2 = tl.load(in_ptr2 + (x0 + 64*r0_1), xmask, other=0.0)
    tmp3 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp4 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
    tmp5 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
    tmp7 = tl.where(xmask, tmp3, 0)
    tmp8 = tl.where(xmask, tmp4, 0)
    tmp9 = tl.where(xmask, tmp5, 0)
    tmp10, tmp11, tmp12 = triton_helpers.welford(tmp7, tmp8, tmp9, 1)
    tmp13 = tmp10[:, None]
    tmp14 = tmp11[:, None]
    tmp15 = tmp12[:, None]
    tl.store(out_ptr0 + (x0), tmp13, xmask)
    tl.store(out_ptr1 + (x0), tmp14, xmask)
    tl.store(out_ptr2 + (x0), tmp15, xmask)
''', device_str='cuda')


# kernel path: /tmp/probe-run/lanes/0.0.0/mints/probe-dynamo/H200/r2/a1/cache/inductor/5n/c5nycat4grs2j4dsrbfhywhmhphyd7ptwbdpliinn24aap73acis.py
# Topologically Sorted Source Nodes: [conv2d, group_norm], Original ATen: [aten.convolution, aten.native_group_norm]
# Source node to ATen node mapping:
#   conv2d => convolution
#   group_norm => convert_element_type, var_mean, view
# Graph fragment:
#   %buf6 : Tensor "f32[1, 8, 1, 1, 8][64, 8, 64, 64, 1]cuda:0" = PlaceHolder[target=buf6]
#   %buf7 : Tensor "f32[1, 8, 1, 1, 8][64, 8, 64, 64, 1]cuda:0" = PlaceHolder[target=buf7]
#   %buf8 : Tensor "f32[1, 8, 1, 1, 8][64, 8, 64, 64, 1]cuda:0" = PlaceHolder[target=buf8]
#   %convolution : Tensor "f16[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%arg2_1, %arg0_1, %arg1_1, [1, 1], [1, 1], [1, 1], False, [0, 0], 1), kwargs = {})
#   %convert_element_type : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convolution, torch.float32), kwargs = {})
#   %view : Tensor "f32[1, 8, 16, 4096][524288, 65536, 4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%convert_element_type, [1, 8, 16, 4096]), kwargs = {})
#   %var_mean : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%view, [2, 3]), kwargs = {correction: 0, keepdim: True})
#   return %getitem_1,%buf10
triton_per_fused_convolution_native_group_norm_4 = async_compile.triton('triton_per_fused_convolution_native_group_norm_4', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 8, 'r0_': 8},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_convolution_native_group_norm_4', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 3, 'num_store': 2, 'num_reduction': 2, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 128, 'r0_': 768}}
)
@triton.jit
def triton_per_fused_convolution_native_group_norm_4(in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 8
    r0_numel = 8
    R0_BLOCK: tl.constexpr = 8
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 8*x0), xmask, other=0.0)
    tmp1 = tl.load(in_ptr1 + (r0_1 + 8*x0), xmask, other=0.0)
    tmp2 = tl.load(in_ptr2 + (r0_1 + 8*x0), xmask, other=0.0)
    tmp3 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp4 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
    tmp5 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
    tmp7 = tl.where(xmask, tmp3, 0)
    tmp8 = tl.where(xmask, tmp4, 0)
    tmp9 = tl.where(xmask, tmp5, 0)
    tmp10, tmp11, tmp12 = triton_helpers.welford(tmp7, tmp8, tmp9, 1)
    tmp13 = tmp10[:, None]
    tmp14 = tmp11[:, None]
    tmp15 = tmp12[:, None]
    tl.store(out_ptr0 + (x0), tmp13, xmask)
    tl.store(out_ptr1 + (x0), tmp14, xmask)
''', device_str='cuda')


# kernel path: /tmp/probe-run/lanes/0.0.0/mints/probe-dynamo/H200/r2/a1/cache/inductor/fq/cfq6pgtzvkgwkvc7r7f5qumegb6lfoqycx5np4ccnfha4wg3flgz.py
# Topologically Sorted Source Nodes: [conv2d, group_norm, h], Original ATen: [aten.convolution, aten.native_group_norm, aten.silu]
# Source node to ATen node mapping:
#   conv2d => convolution
#   group_norm => add, add_1, convert_element_type, mul, mul_1, rsqrt, sub, unsqueeze, unsqueeze_1, unsqueeze_2, unsqueeze_3, unsqueeze_4, unsqueeze_5, var_mean, view, view_1
#   h => add_2, convert_element_type_5, div, exp, neg
# Graph fragment:
#   %buf2 : Tensor "f16[1, 128, 64, 64][524288, 1, 8192, 128]cuda:0" = PlaceHolder[target=buf2]
#   %arg1_1 : Tensor "f16[128][1]cuda:0" = PlaceHolder[target=arg1_1]
#   %getitem_1 : Tensor "f32[1, 8, 1, 1][8, 1, 8, 8]cuda:0" = PlaceHolder[target=getitem_1]
#   %buf10 : Tensor "f32[1, 8, 1, 1][8, 1, 8, 8]cuda:0" = PlaceHolder[target=buf10]
#   %arg3_1 : Tensor "f16[128][1]cuda:0" = PlaceHolder[target=arg3_1]
#   %arg4_1 : Tensor "f16[128][1]cuda:0" = PlaceHolder[target=arg4_1]
#   %add_1 : Tensor "f32[1, 128, 64, 64][524288, 1, 8192, 128]cuda:0" = PlaceHolder[target=add_1]
#   %convolution : Tensor "f16[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%arg2_1, %arg0_1, %arg1_1, [1, 1], [1, 1], [1, 1], False, [0, 0], 1), kwargs = {})
#   %convert_element_type : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convolution, torch.float32), kwargs = {})
#   %view : Tensor "f32[1, 8, 16, 4096][524288, 65536, 4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%convert_element_type, [1, 8, 16, 4096]), kwargs = {})
#   %var_mean : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%view, [2, 3]), kwargs = {correction: 0, keepdim: True})
#   %sub : Tensor "f32[1, 8, 16, 4096][524288, 65536, 4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%view, %getitem_1), kwargs = {})
#   %add : Tensor "f32[1, 8, 1, 1][8, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem, 1e-05), kwargs = {})
#   %rsqrt : Tensor "f32[1, 8, 1, 1][8, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add,), kwargs = {})
#   %mul : Tensor "f32[1, 8, 16, 4096][524288, 65536, 4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub, %rsqrt), kwargs = {})
#   %view_1 : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mul, [1, 128, 64, 64]), kwargs = {})
#   %unsqueeze : Tensor "f16[1, 128][128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg3_1, 0), kwargs = {})
#   %unsqueeze_1 : Tensor "f16[1, 128, 1][128, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze, 2), kwargs = {})
#   %unsqueeze_2 : Tensor "f16[1, 128, 1, 1][128, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_1, 3), kwargs = {})
#   %mul_1 : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_1, %unsqueeze_2), kwargs = {})
#   %unsqueeze_3 : Tensor "f16[1, 128][128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg4_1, 0), kwargs = {})
#   %unsqueeze_4 : Tensor "f16[1, 128, 1][128, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_3, 2), kwargs = {})
#   %unsqueeze_5 : Tensor "f16[1, 128, 1, 1][128, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_4, 3), kwargs = {})
#   %add_1 : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_1, %unsqueeze_5), kwargs = {})
#   %neg : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%add_1,), kwargs = {})
#   %exp : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg,), kwargs = {})
#   %add_2 : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp, 1), kwargs = {})
#   %div : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%add_1, %add_2), kwargs = {})
#   %convert_element_type_5 : Tensor "f16[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div, torch.float16), kwargs = {})
#   return %add_1,%convert_element_type_5
triton_poi_fused_convolution_native_group_norm_silu_5 = async_compile.triton('triton_poi_fused_convolution_native_group_norm_silu_5', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 524288}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp16', 'in_ptr1': '*fp16', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp16', 'in_ptr5': '*fp16', 'out_ptr1': '*fp16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_convolution_native_group_norm_silu_5', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 6, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 3146560}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_convolution_native_group_norm_silu_5(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr1, xnumel, XBLOCK : tl.constexpr):
    xnumel = 524288
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x2 = xindex
    x0 = (xindex % 128)
    tmp0 = tl.load(in_ptr0 + (x2), None).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (x0), None, eviction_policy='evict_last').to(tl.float32)
    tmp4 = tl.load(in_ptr2 + (x0 // 16), None, eviction_policy='evict_last')
    tmp6 = tl.load(in_ptr3 + (x0 // 16), None, eviction_policy='evict_last')
    tmp13 = tl.load(in_ptr4 + (x0), None, eviction_policy='evict_last').to(tl.float32)
    tmp16 = tl.load(in_ptr5 + (x0), None, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp2.to(tl.float32)
    tmp5 = tmp3 - tmp4
    tmp7 = tl.full([1], 65536.0, tl.float32)
    tmp8 = (tmp6 / tmp7)
    tmp9 = tl.full([1], 1e-05, tl.float32)
    tmp10 = tmp8 + tmp9
    tmp11 = libdevice.rsqrt(tmp10)
    tmp12 = tmp5 * tmp11
    tmp14 = tmp13.to(tl.float32)
    tmp15 = tmp12 * tmp14
    tmp17 = tmp16.to(tl.float32)
    tmp18 = tmp15 + tmp17
    tmp19 = -tmp18
    tmp20 = libdevice.exp(tmp19)
    tmp21 = tl.full([1], 1.0, tl.float32)
    tmp22 = tmp20 + tmp21
    tmp23 = (tmp18 / tmp22)
    tmp24 = tmp23.to(tl.float32)
    tl.store(out_ptr1 + (x2), tmp24, None)
''', device_str='cuda')


# kernel path: /tmp/probe-run/lanes/0.0.0/mints/probe-dynamo/H200/r2/a1/cache/inductor/2h/c2hlenwg2xycgowdlfetg2muxm7s332glhmoibcedx22lvor6cai.py
# Topologically Sorted Source Nodes: [h, conv2d_1], Original ATen: [aten.silu, aten.convolution]
# Source node to ATen node mapping:
#   conv2d_1 => convolution_1
#   h => add_2, convert_element_type_5, div, exp, neg
# Graph fragment:
#   %arg5_1 : Tensor "f16[128, 128, 3, 3][1152, 9, 3, 1]cuda:0" = PlaceHolder[target=arg5_1]
#   %neg : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%add_1,), kwargs = {})
#   %exp : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg,), kwargs = {})
#   %add_2 : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp, 1), kwargs = {})
#   %div : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%add_1, %add_2), kwargs = {})
#   %convert_element_type_5 : Tensor "f16[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div, torch.float16), kwargs = {})
#   %convolution_1 : Tensor "f16[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%convert_element_type_5, %arg5_1, %arg6_1, [1, 1], [1, 1], [1, 1], False, [0, 0], 1), kwargs = {})
#   return %buf14
triton_poi_fused_convolution_silu_6 = async_compile.triton('triton_poi_fused_convolution_silu_6', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 16384, 'x': 16}, tile_hint=TileHint.SQUARE,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp16', 'out_ptr0': '*fp16', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_convolution_silu_6', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 589824, 'x': 294912}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_convolution_silu_6(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 16384
    xnumel = 9
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = tl.full([YBLOCK], True, tl.int1)[:, None]
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex
    y3 = yindex
    y0 = (yindex % 128)
    y1 = yindex // 128
    tmp0 = tl.load(in_ptr0 + (x2 + 9*y3), xmask, eviction_policy='evict_last').to(tl.float32)
    tl.store(out_ptr0 + (y0 + 128*x2 + 1152*y1), tmp0, xmask)
''', device_str='cuda')


# kernel path: /tmp/probe-run/lanes/0.0.0/mints/probe-dynamo/H200/r2/a1/cache/inductor/3k/c3klgxhjtd7olx2f24htopmu4lx6mpwz4vrpyieggtqlbcgimuxn.py
# Topologically Sorted Source Nodes: [h, conv2d_1, silu_1, h_1], Original ATen: [aten.silu, aten.convolution, aten.add]
# Source node to ATen node mapping:
#   conv2d_1 => convolution_1
#   h => add_2, convert_element_type_5, div, exp, neg
#   h_1 => add_4
#   silu_1 => add_3, convert_element_type_6, convert_element_type_7, div_1, exp_1, neg_1
# Graph fragment:
#   %convert_element_type_5 : Tensor "f16[1, 128, 64, 64][524288, 1, 8192, 128]cuda:0" = PlaceHolder[target=convert_element_type_5]
#   %buf15 : Tensor "f16[1, 128, 64, 64][524288, 1, 8192, 128]cuda:0" = PlaceHolder[target=buf15]
#   %arg6_1 : Tensor "f16[128][1]cuda:0" = PlaceHolder[target=arg6_1]
#   %neg : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%add_1,), kwargs = {})
#   %exp : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg,), kwargs = {})
#   %add_2 : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp, 1), kwargs = {})
#   %div : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%add_1, %add_2), kwargs = {})
#   %convert_element_type_5 : Tensor "f16[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div, torch.float16), kwargs = {})
#   %convolution_1 : Tensor "f16[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%convert_element_type_5, %arg5_1, %arg6_1, [1, 1], [1, 1], [1, 1], False, [0, 0], 1), kwargs = {})
#   %convert_element_type_6 : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convolution_1, torch.float32), kwargs = {})
#   %neg_1 : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%convert_element_type_6,), kwargs = {})
#   %exp_1 : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg_1,), kwargs = {})
#   %add_3 : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp_1, 1), kwargs = {})
#   %div_1 : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%convert_element_type_6, %add_3), kwargs = {})
#   %convert_element_type_7 : Tensor "f16[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div_1, torch.float16), kwargs = {})
#   %add_4 : Tensor "f16[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%convert_element_type_5, %convert_element_type_7), kwargs = {})
#   return %add_4
triton_poi_fused_add_convolution_silu_7 = async_compile.triton('triton_poi_fused_add_convolution_silu_7', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 4096, 'x': 128}, tile_hint=TileHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp16', 'in_ptr1': '*fp16', 'in_ptr2': '*fp16', 'out_ptr0': '*fp16', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_add_convolution_silu_7', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 3, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 2097152, 'x': 2097408}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_add_convolution_silu_7(in_ptr0, in_ptr1, in_ptr2, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 4096
    xnumel = 128
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = tl.full([YBLOCK], True, tl.int1)[:, None]
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x1 = xindex
    y0 = yindex
    tmp0 = tl.load(in_ptr0 + (x1 + 128*y0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (x1 + 128*y0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tl.load(in_ptr2 + (x1), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp3 = tmp1 + tmp2
    tmp4 = tmp3.to(tl.float32)
    tmp5 = -tmp4
    tmp6 = libdevice.exp(tmp5)
    tmp7 = tl.full([1, 1], 1.0, tl.float32)
    tmp8 = tmp6 + tmp7
    tmp9 = (tmp4 / tmp8)
    tmp10 = tmp9.to(tl.float32)
    tmp11 = tmp0 + tmp10
    tl.store(out_ptr0 + (y0 + 4096*x1), tmp11, xmask)
''', device_str='cuda')


# kernel path: /tmp/probe-run/lanes/0.0.0/mints/probe-dynamo/H200/r2/a1/cache/inductor/yj/cyj4o24bohndfjnjsm7n22kz2bwa23wfav2iu5z72dhigpzw63hs.py
# Topologically Sorted Source Nodes: [linear, a], Original ATen: [aten._unsafe_view, aten.add, aten._to_copy, aten.mul]
# Source node to ATen node mapping:
#   a => convert_element_type_14, mul_2
#   linear => add_5, view_4
# Graph fragment:
#   %mm : Tensor "f16[4096, 128][128, 1]cuda:0" = PlaceHolder[target=mm]
#   %arg8_1 : Tensor "f16[128][1]cuda:0" = PlaceHolder[target=arg8_1]
#   %view_4 : Tensor "f16[1, 4096, 128][524288, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm, [1, 4096, 128]), kwargs = {})
#   %add_5 : Tensor "f16[1, 4096, 128][524288, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_4, %arg8_1), kwargs = {})
#   %convert_element_type_14 : Tensor "f32[1, 4096, 128][524288, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_5, torch.float32), kwargs = {})
#   %mul_2 : Tensor "f32[1, 4096, 128][524288, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Scalar](args = (%convert_element_type_14, 0.29730177875068026), kwargs = {})
#   return %expand
triton_poi_fused__to_copy__unsafe_view_add_mul_8 = async_compile.triton('triton_poi_fused__to_copy__unsafe_view_add_mul_8', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 524288}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp16', 'in_ptr1': '*fp16', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__to_copy__unsafe_view_add_mul_8', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 5243136}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy__unsafe_view_add_mul_8(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 524288
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x2 = xindex
    x0 = (xindex % 128)
    tmp0 = tl.load(in_ptr0 + (x2), None).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (x0), None, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp2.to(tl.float32)
    tmp4 = tl.full([1], 0.29730177875068026, tl.float32)
    tmp5 = tmp3 * tmp4
    tl.store(out_ptr0 + (x2), tmp5, None)
''', device_str='cuda')


# kernel path: /tmp/probe-run/lanes/0.0.0/mints/probe-dynamo/H200/r2/a1/cache/inductor/ui/cuiyg5o6vjlquym6wxskgyawthmv46wttz25g6tvblhfhxbgkjr2.py
# Topologically Sorted Source Nodes: [linear_1, a], Original ATen: [aten._unsafe_view, aten.add, aten._to_copy, aten.transpose, aten.mul]
# Source node to ATen node mapping:
#   a => convert_element_type_15, mul_3, permute_4
#   linear_1 => add_6, view_6
# Graph fragment:
#   %mm_1 : Tensor "f16[4096, 128][128, 1]cuda:0" = PlaceHolder[target=mm_1]
#   %arg10_1 : Tensor "f16[128][1]cuda:0" = PlaceHolder[target=arg10_1]
#   %view_6 : Tensor "f16[1, 4096, 128][524288, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_1, [1, 4096, 128]), kwargs = {})
#   %add_6 : Tensor "f16[1, 4096, 128][524288, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_6, %arg10_1), kwargs = {})
#   %convert_element_type_15 : Tensor "f32[1, 4096, 128][524288, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_6, torch.float32), kwargs = {})
#   %permute_4 : Tensor "f32[1, 128, 4096][524288, 1, 128]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%convert_element_type_15, [0, 2, 1]), kwargs = {})
#   %mul_3 : Tensor "f32[1, 128, 4096][524288, 1, 128]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Scalar](args = (%permute_4, 0.29730177875068026), kwargs = {})
#   return %expand_1
triton_poi_fused__to_copy__unsafe_view_add_mul_transpose_9 = async_compile.triton('triton_poi_fused__to_copy__unsafe_view_add_mul_transpose_9', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 128, 'x': 4096}, tile_hint=TileHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp16', 'in_ptr1': '*fp16', 'out_ptr0': '*fp32', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__to_copy__unsafe_view_add_mul_transpose_9', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 1048832, 'x': 4194304}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy__unsafe_view_add_mul_transpose_9(in_ptr0, in_ptr1, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 128
    xnumel = 4096
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = tl.full([XBLOCK], True, tl.int1)[None, :]
    x1 = xindex
    y0 = yindex
    tmp0 = tl.load(in_ptr0 + (y0 + 128*x1), ymask, eviction_policy='evict_last').to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (y0), ymask, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp2.to(tl.float32)
    tmp4 = tl.full([1, 1], 0.29730177875068026, tl.float32)
    tmp5 = tmp3 * tmp4
    tl.store(out_ptr0 + (x1 + 4096*y0), tmp5, ymask)
''', device_str='cuda')


# kernel path: /tmp/probe-run/lanes/0.0.0/mints/probe-dynamo/H200/r2/a1/cache/inductor/tz/ctze6xps3wi2jd5uyltjdcto6qnez3kol5dmcqfxap5tkzi4twll.py
# Topologically Sorted Source Nodes: [a], Original ATen: [aten.bmm, aten._safe_softmax, prims.prepare_softmax_online, aten.sub, aten.exp]
# Source node to ATen node mapping:
#   a => any_1, div_2, eq, full_default, logical_not, logical_not_1, unsqueeze_default_1, where
# Graph fragment:
#   %mm_default_1 : Tensor "f32[4096, 4096][4096, 1]cuda:0" = PlaceHolder[target=mm_default_1]
#   %any_1 : Tensor "b8[1, 4096, 1][4096, 1, 4096]cuda:0" = PlaceHolder[target=any_1]
#   %getitem_2 : Tensor "f32[1, 4096, 1][4096, 1, 4096]cuda:0" = PlaceHolder[target=getitem_2]
#   %getitem_3 : Tensor "f32[1, 4096, 1][4096, 1, 4096]cuda:0" = PlaceHolder[target=getitem_3]
#   %unsqueeze_default_1 : Tensor "f32[1, 4096, 4096][16777216, 4096, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mm_default_1, 0), kwargs = {})
#   %eq : Tensor "b8[1, 4096, 4096][16777216, 4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.eq.Scalar](args = (%unsqueeze_default_1, -inf), kwargs = {})
#   %logical_not : Tensor "b8[1, 4096, 4096][16777216, 4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.logical_not.default](args = (%eq,), kwargs = {})
#   %any_1 : Tensor "b8[1, 4096, 1][4096, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.any.dim](args = (%logical_not, -1, True), kwargs = {})
#   %logical_not_1 : Tensor "b8[1, 4096, 1][4096, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.logical_not.default](args = (%any_1,), kwargs = {})
#   %full_default : Tensor "f32[1, 4096, 4096][16777216, 4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([1, 4096, 4096], 0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %prepare_softmax_online_default : [num_users=2] = call_function[target=torch.ops.prims.prepare_softmax_online.default](args = (%unsqueeze_default_1, -1), kwargs = {})
#   %sub_tensor : Tensor "f32[1, 4096, 4096][16777216, 4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%unsqueeze_default_1, %getitem_2), kwargs = {})
#   %exp_default : Tensor "f32[1, 4096, 4096][16777216, 4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%sub_tensor,), kwargs = {})
#   %div_2 : Tensor "f32[1, 4096, 4096][16777216, 4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%exp_default, %getitem_3), kwargs = {})
#   %where : Tensor "f32[1, 4096, 4096][16777216, 4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%logical_not_1, %full_default, %div_2), kwargs = {})
#   return %any_1,%getitem_2,%getitem_3,%expand_2
triton_red_fused__safe_softmax_bmm_exp_prepare_softmax_online_sub_10 = async_compile.triton('triton_red_fused__safe_softmax_bmm_exp_prepare_softmax_online_sub_10', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 4096, 'r0_': 4096},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__safe_softmax_bmm_exp_prepare_softmax_online_sub_10', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 3, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'add_persistent_rblock': True, 'tiling_scores': {'x': 0, 'r0_': 201326592}}
)
@triton.jit
def triton_red_fused__safe_softmax_bmm_exp_prepare_softmax_online_sub_10(in_out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 4096
    r0_numel = 4096
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp7 = tl.full([XBLOCK, R0_BLOCK], False, tl.int1)
    _tmp11_max = tl.full([XBLOCK, R0_BLOCK], float('-inf'), tl.float32)
    _tmp11_sum = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_out_ptr0 + (r0_1 + 4096*x0), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp1 = tl.full([1, 1], float("-inf"), tl.float32)
        tmp2 = tmp0 == tmp1
        tmp3 = tmp2 == 0
        tmp4 = tmp3.to(tl.int64)
        tmp5 = (tmp4 != 0)
        tmp6 = tl.broadcast_to(tmp5, [XBLOCK, R0_BLOCK])
        tmp8 = _tmp7 | tmp6
        _tmp7 = tl.where(r0_mask, tmp8, _tmp7)
        tmp10 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])

        _tmp11_max_next, _tmp11_sum_next = triton_helpers.online_softmax_combine(
            _tmp11_max, _tmp11_sum, tmp10, False
        )

        _tmp11_max = tl.where(r0_mask, _tmp11_max_next, _tmp11_max)
        _tmp11_sum = tl.where(r0_mask, _tmp11_sum_next, _tmp11_sum)
    tmp9 = _tmp7.to(tl.int8)
    tmp7 = triton_helpers.any(tmp9, 1)[:, None]

    tmp11, tmp12 = triton_helpers.online_softmax_reduce(
        _tmp11_max, _tmp11_sum, 1, False)
    tmp11 = tmp11[:, None]
    tmp12 = tmp12[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp14 = tl.load(in_out_ptr0 + (r0_1 + 4096*x0), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp13 = tmp7 == 0
        tmp15 = tmp14 - tmp11
        tmp16 = libdevice.exp(tmp15)
        tmp17 = (tmp16 / tmp12)
        tmp18 = tl.full([1, 1], 0.0, tl.float32)
        tmp19 = tl.where(tmp13, tmp18, tmp17)
        tl.store(in_out_ptr0 + (r0_1 + 4096*x0), tmp19, r0_mask)
''', device_str='cuda')


# kernel path: /tmp/probe-run/lanes/0.0.0/mints/probe-dynamo/H200/r2/a1/cache/inductor/yk/cyk6fj6xydizqzwktjyxzmu7de3jrulizhv3rf5rqekyi3pbh6mr.py
# Topologically Sorted Source Nodes: [linear_2, a], Original ATen: [aten._unsafe_view, aten.add, aten._to_copy]
# Source node to ATen node mapping:
#   a => convert_element_type_16
#   linear_2 => add_7, view_8
# Graph fragment:
#   %mm_2 : Tensor "f16[4096, 128][128, 1]cuda:0" = PlaceHolder[target=mm_2]
#   %arg12_1 : Tensor "f16[128][1]cuda:0" = PlaceHolder[target=arg12_1]
#   %view_8 : Tensor "f16[1, 4096, 128][524288, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_2, [1, 4096, 128]), kwargs = {})
#   %add_7 : Tensor "f16[1, 4096, 128][524288, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_8, %arg12_1), kwargs = {})
#   %convert_element_type_16 : Tensor "f32[1, 4096, 128][524288, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_7, torch.float32), kwargs = {})
#   return %expand_3
triton_poi_fused__to_copy__unsafe_view_add_11 = async_compile.triton('triton_poi_fused__to_copy__unsafe_view_add_11', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 524288}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp16', 'in_ptr1': '*fp16', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__to_copy__unsafe_view_add_11', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 5243136}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy__unsafe_view_add_11(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 524288
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x2 = xindex
    x0 = (xindex % 128)
    tmp0 = tl.load(in_ptr0 + (x2), None).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (x0), None, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp2.to(tl.float32)
    tl.store(out_ptr0 + (x2), tmp3, None)
''', device_str='cuda')


# kernel path: /tmp/probe-run/lanes/0.0.0/mints/probe-dynamo/H200/r2/a1/cache/inductor/hs/chs46xsumkupsnzph5kvps7phpuj7lyacq63qrldpasjuhot2ube.py
# Topologically Sorted Source Nodes: [h, conv2d_1, silu_1, h_1, flatten, t, a, t_1], Original ATen: [aten.silu, aten.convolution, aten.add, aten.view, aten.transpose, aten.bmm, aten._to_copy]
# Source node to ATen node mapping:
#   a => convert_element_type_18, unsqueeze_default
#   conv2d_1 => convolution_1
#   flatten => view_2
#   h => add_2, convert_element_type_5, div, exp, neg
#   h_1 => add_4
#   silu_1 => add_3, convert_element_type_6, convert_element_type_7, div_1, exp_1, neg_1
#   t => permute
#   t_1 => add_8
# Graph fragment:
#   %add_4 : Tensor "f16[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0" = PlaceHolder[target=add_4]
#   %mm_default : Tensor "f32[4096, 128][128, 1]cuda:0" = PlaceHolder[target=mm_default]
#   %neg : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%add_1,), kwargs = {})
#   %exp : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg,), kwargs = {})
#   %add_2 : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp, 1), kwargs = {})
#   %div : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%add_1, %add_2), kwargs = {})
#   %convert_element_type_5 : Tensor "f16[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div, torch.float16), kwargs = {})
#   %convolution_1 : Tensor "f16[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%convert_element_type_5, %arg5_1, %arg6_1, [1, 1], [1, 1], [1, 1], False, [0, 0], 1), kwargs = {})
#   %convert_element_type_6 : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convolution_1, torch.float32), kwargs = {})
#   %neg_1 : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%convert_element_type_6,), kwargs = {})
#   %exp_1 : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg_1,), kwargs = {})
#   %add_3 : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp_1, 1), kwargs = {})
#   %div_1 : Tensor "f32[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%convert_element_type_6, %add_3), kwargs = {})
#   %convert_element_type_7 : Tensor "f16[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div_1, torch.float16), kwargs = {})
#   %add_4 : Tensor "f16[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%convert_element_type_5, %convert_element_type_7), kwargs = {})
#   %view_2 : Tensor "f16[1, 128, 4096][524288, 4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%add_4, [1, 128, 4096]), kwargs = {})
#   %permute : Tensor "f16[1, 4096, 128][524288, 1, 4096]cuda:0"[num_users=4] = call_function[target=torch.ops.aten.permute.default](args = (%view_2, [0, 2, 1]), kwargs = {})
#   %unsqueeze_default : Tensor "f32[1, 4096, 128][524288, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mm_default, 0), kwargs = {})
#   %convert_element_type_18 : Tensor "f16[1, 4096, 128][524288, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%unsqueeze_default, torch.float16), kwargs = {})
#   %add_8 : Tensor "f16[1, 4096, 128][524288, 1, 4096]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%permute, %convert_element_type_18), kwargs = {})
#   return %add_8
triton_poi_fused__to_copy_add_bmm_convolution_silu_transpose_view_12 = async_compile.triton('triton_poi_fused__to_copy_add_bmm_convolution_silu_transpose_view_12', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 4096, 'x': 128}, tile_hint=TileHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp16', 'in_ptr1': '*fp32', 'out_ptr0': '*fp16', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__to_copy_add_bmm_convolution_silu_transpose_view_12', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 1048576, 'x': 4194304}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy_add_bmm_convolution_silu_transpose_view_12(in_ptr0, in_ptr1, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 4096
    xnumel = 128
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = tl.full([YBLOCK], True, tl.int1)[:, None]
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x1 = xindex
    y0 = yindex
    tmp0 = tl.load(in_ptr0 + (y0 + 4096*x1), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (x1 + 128*y0), xmask, eviction_policy='evict_last')
    tmp2 = tmp1.to(tl.float32)
    tmp3 = tmp0 + tmp2
    tl.store(out_ptr0 + (x1 + 128*y0), tmp3, xmask)
''', device_str='cuda')


# kernel path: /tmp/probe-run/lanes/0.0.0/mints/probe-dynamo/H200/r2/a1/cache/inductor/ds/cdsjbvrlhqx2o7selmeukxpyux7mhqxcjatltniwt2xhfluo2xad.py
# Topologically Sorted Source Nodes: [linear_3, gelu], Original ATen: [aten._unsafe_view, aten.add, aten.gelu]
# Source node to ATen node mapping:
#   gelu => add_10, convert_element_type_21, convert_element_type_22, erf, mul_4, mul_5, mul_6
#   linear_3 => add_9, view_16
# Graph fragment:
#   %mm_3 : Tensor "f16[4096, 512][512, 1]cuda:0" = PlaceHolder[target=mm_3]
#   %arg14_1 : Tensor "f16[512][1]cuda:0" = PlaceHolder[target=arg14_1]
#   %view_16 : Tensor "f16[1, 4096, 512][2097152, 512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_3, [1, 4096, 512]), kwargs = {})
#   %add_9 : Tensor "f16[1, 4096, 512][2097152, 512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_16, %arg14_1), kwargs = {})
#   %convert_element_type_21 : Tensor "f32[1, 4096, 512][2097152, 512, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_9, torch.float32), kwargs = {})
#   %mul_4 : Tensor "f32[1, 4096, 512][2097152, 512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_21, 0.5), kwargs = {})
#   %mul_5 : Tensor "f32[1, 4096, 512][2097152, 512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_21, 0.7071067811865476), kwargs = {})
#   %erf : Tensor "f32[1, 4096, 512][2097152, 512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.erf.default](args = (%mul_5,), kwargs = {})
#   %add_10 : Tensor "f32[1, 4096, 512][2097152, 512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%erf, 1), kwargs = {})
#   %mul_6 : Tensor "f32[1, 4096, 512][2097152, 512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_4, %add_10), kwargs = {})
#   %convert_element_type_22 : Tensor "f16[1, 4096, 512][2097152, 512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_6, torch.float16), kwargs = {})
#   return %convert_element_type_22
triton_poi_fused__unsafe_view_add_gelu_13 = async_compile.triton('triton_poi_fused__unsafe_view_add_gelu_13', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 2097152}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp16', 'in_ptr0': '*fp16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__unsafe_view_add_gelu_13', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 12583936}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__unsafe_view_add_gelu_13(in_out_ptr0, in_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 2097152
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x2 = xindex
    x0 = (xindex % 512)
    tmp0 = tl.load(in_out_ptr0 + (x2), None).to(tl.float32)
    tmp1 = tl.load(in_ptr0 + (x0), None, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp2.to(tl.float32)
    tmp4 = tl.full([1], 0.5, tl.float32)
    tmp5 = tmp3 * tmp4
    tmp6 = tl.full([1], 0.7071067811865476, tl.float32)
    tmp7 = tmp3 * tmp6
    tmp8 = libdevice.erf(tmp7)
    tmp9 = tl.full([1], 1.0, tl.float32)
    tmp10 = tmp8 + tmp9
    tmp11 = tmp5 * tmp10
    tmp12 = tmp11.to(tl.float32)
    tl.store(in_out_ptr0 + (x2), tmp12, None)
''', device_str='cuda')


# kernel path: /tmp/probe-run/lanes/0.0.0/mints/probe-dynamo/H200/r2/a1/cache/inductor/ks/cksk7smr667ajpwojelk7qx4gdawjbnz3sbi76q5u4n3dsqgeacy.py
# Topologically Sorted Source Nodes: [linear_4, t_2], Original ATen: [aten.view, aten.add]
# Source node to ATen node mapping:
#   linear_4 => view_18
#   t_2 => add_11
# Graph fragment:
#   %add_8 : Tensor "f16[1, 4096, 128][524288, 128, 1]cuda:0" = PlaceHolder[target=add_8]
#   %addmm : Tensor "f16[4096, 128][128, 1]cuda:0" = PlaceHolder[target=addmm]
#   %view_18 : Tensor "f16[1, 4096, 128][524288, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm, [1, 4096, 128]), kwargs = {})
#   %add_11 : Tensor "f16[1, 4096, 128][524288, 1, 4096]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_8, %view_18), kwargs = {})
#   return %add_11
triton_poi_fused_add_view_14 = async_compile.triton('triton_poi_fused_add_view_14', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 524288}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp16', 'in_ptr0': '*fp16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_add_view_14', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 4194304}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_add_view_14(in_out_ptr0, in_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 524288
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + (x0), None).to(tl.float32)
    tmp1 = tl.load(in_ptr0 + (x0), None).to(tl.float32)
    tmp2 = tmp0 + tmp1
    tl.store(in_out_ptr0 + (x0), tmp2, None)
''', device_str='cuda')


# kernel path: /tmp/probe-run/lanes/0.0.0/mints/probe-dynamo/H200/r2/a1/cache/inductor/pt/cptowhf4x4t2zldbzastvpkfdij7va22tcph3wkiedwum6snjpnz.py
# Topologically Sorted Source Nodes: [linear_4, t_2, transpose_1, h_2, conv2d_2], Original ATen: [aten.view, aten.add, aten.transpose, aten.convolution]
# Source node to ATen node mapping:
#   conv2d_2 => convolution_2
#   h_2 => view_19
#   linear_4 => view_18
#   t_2 => add_11
#   transpose_1 => permute_7
# Graph fragment:
#   %arg17_1 : Tensor "f16[4, 128, 3, 3][1152, 9, 3, 1]cuda:0" = PlaceHolder[target=arg17_1]
#   %view_18 : Tensor "f16[1, 4096, 128][524288, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm, [1, 4096, 128]), kwargs = {})
#   %add_11 : Tensor "f16[1, 4096, 128][524288, 1, 4096]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_8, %view_18), kwargs = {})
#   %permute_7 : Tensor "f16[1, 128, 4096][524288, 4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%add_11, [0, 2, 1]), kwargs = {})
#   %view_19 : Tensor "f16[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%permute_7, [1, 128, 64, 64]), kwargs = {})
#   %convolution_2 : Tensor "f16[1, 4, 64, 64][16384, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%view_19, %arg17_1, %arg18_1, [1, 1], [1, 1], [1, 1], False, [0, 0], 1), kwargs = {})
#   return %buf34
triton_poi_fused_add_convolution_transpose_view_15 = async_compile.triton('triton_poi_fused_add_convolution_transpose_view_15', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 512, 'x': 16}, tile_hint=TileHint.SQUARE,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp16', 'out_ptr0': '*fp16', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_add_convolution_transpose_view_15', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 18432, 'x': 9216}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_add_convolution_transpose_view_15(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 512
    xnumel = 9
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex
    y3 = yindex
    y0 = (yindex % 128)
    y1 = yindex // 128
    tmp0 = tl.load(in_ptr0 + (x2 + 9*y3), xmask & ymask, eviction_policy='evict_last').to(tl.float32)
    tl.store(out_ptr0 + (y0 + 128*x2 + 1152*y1), tmp0, xmask & ymask)
''', device_str='cuda')


# kernel path: /tmp/probe-run/lanes/0.0.0/mints/probe-dynamo/H200/r2/a1/cache/inductor/m7/cm7qwlbad7kqgifkbk2uq24m5it5i4u6quz4ijjg23kecow7ol6w.py
# Topologically Sorted Source Nodes: [linear_4, t_2, transpose_1, h_2, conv2d_2], Original ATen: [aten.view, aten.add, aten.transpose, aten.convolution]
# Source node to ATen node mapping:
#   conv2d_2 => convolution_2
#   h_2 => view_19
#   linear_4 => view_18
#   t_2 => add_11
#   transpose_1 => permute_7
# Graph fragment:
#   %buf35 : Tensor "f16[1, 4, 64, 64][16384, 1, 256, 4]cuda:0" = PlaceHolder[target=buf35]
#   %arg18_1 : Tensor "f16[4][1]cuda:0" = PlaceHolder[target=arg18_1]
#   %view_18 : Tensor "f16[1, 4096, 128][524288, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm, [1, 4096, 128]), kwargs = {})
#   %add_11 : Tensor "f16[1, 4096, 128][524288, 1, 4096]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_8, %view_18), kwargs = {})
#   %permute_7 : Tensor "f16[1, 128, 4096][524288, 4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%add_11, [0, 2, 1]), kwargs = {})
#   %view_19 : Tensor "f16[1, 128, 64, 64][524288, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%permute_7, [1, 128, 64, 64]), kwargs = {})
#   %convolution_2 : Tensor "f16[1, 4, 64, 64][16384, 4096, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%view_19, %arg17_1, %arg18_1, [1, 1], [1, 1], [1, 1], False, [0, 0], 1), kwargs = {})
#   return %convolution_2
triton_poi_fused_add_convolution_transpose_view_16 = async_compile.triton('triton_poi_fused_add_convolution_transpose_view_16', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 4, 'x': 4096}, tile_hint=TileHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp16', 'in_ptr1': '*fp16', 'out_ptr0': '*fp16', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_add_convolution_transpose_view_16', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 16388, 'x': 65536}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_add_convolution_transpose_view_16(in_ptr0, in_ptr1, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 4
    xnumel = 4096
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = tl.full([XBLOCK], True, tl.int1)[None, :]
    x1 = xindex
    y0 = yindex
    tmp0 = tl.load(in_ptr0 + (y0 + 4*x1), ymask, eviction_policy='evict_last').to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (y0), ymask, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 + tmp1
    tl.store(out_ptr0 + (x1 + 4096*y0), tmp2, ymask)
''', device_str='cuda')


async_compile.wait(globals())
del async_compile

class Runner:
    def __init__(self, partitions):
        self.partitions = partitions

    def recursively_apply_fns(self, fns):
        new_callables = []
        for fn, c in zip(fns, self.partitions):
            new_callables.append(fn(c))
        self.partitions = new_callables

    def call(self, args):
        arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1 = args
        args.clear()
        assert_size_stride(arg0_1, (128, 4, 3, 3), (36, 9, 3, 1))
        assert_size_stride(arg1_1, (128, ), (1, ))
        assert_size_stride(arg2_1, (1, 4, 64, 64), (16384, 4096, 64, 1))
        assert_size_stride(arg3_1, (128, ), (1, ))
        assert_size_stride(arg4_1, (128, ), (1, ))
        assert_size_stride(arg5_1, (128, 128, 3, 3), (1152, 9, 3, 1))
        assert_size_stride(arg6_1, (128, ), (1, ))
        assert_size_stride(arg7_1, (128, 128), (128, 1))
        assert_size_stride(arg8_1, (128, ), (1, ))
        assert_size_stride(arg9_1, (128, 128), (128, 1))
        assert_size_stride(arg10_1, (128, ), (1, ))
        assert_size_stride(arg11_1, (128, 128), (128, 1))
        assert_size_stride(arg12_1, (128, ), (1, ))
        assert_size_stride(arg13_1, (512, 128), (128, 1))
        assert_size_stride(arg14_1, (512, ), (1, ))
        assert_size_stride(arg15_1, (128, 512), (512, 1))
        assert_size_stride(arg16_1, (128, ), (1, ))
        assert_size_stride(arg17_1, (4, 128, 3, 3), (1152, 9, 3, 1))
        assert_size_stride(arg18_1, (4, ), (1, ))
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            buf0 = empty_strided_cuda((1, 4, 64, 64), (16384, 1, 256, 4), torch.float16)
            # Topologically Sorted Source Nodes: [conv2d], Original ATen: [aten.convolution]
            stream0 = get_raw_stream(0)
            triton_poi_fused_convolution_0.run(arg2_1, buf0, 4, 4096, stream=stream0)
            del arg2_1
            buf1 = empty_strided_cuda((128, 4, 3, 3), (36, 1, 12, 4), torch.float16)
            # Topologically Sorted Source Nodes: [conv2d], Original ATen: [aten.convolution]
            stream0 = get_raw_stream(0)
            triton_poi_fused_convolution_1.run(arg0_1, buf1, 512, 9, stream=stream0)
            del arg0_1
            # Topologically Sorted Source Nodes: [conv2d], Original ATen: [aten.convolution]
            buf2 = extern_kernels.convolution(buf0, buf1, stride=(1, 1), padding=(1, 1), dilation=(1, 1), transposed=False, output_padding=(0, 0), groups=1, bias=None)
            assert_size_stride(buf2, (1, 128, 64, 64), (524288, 1, 8192, 128), 'torch.ops.aten.convolution.default')
            del buf0
            del buf1
            buf3 = empty_strided_cuda((1, 8, 1, 1, 8, 64), (4096, 8, 4096, 4096, 1, 64), torch.float32)
            buf4 = empty_strided_cuda((1, 8, 1, 1, 8, 64), (4096, 8, 4096, 4096, 1, 64), torch.float32)
            buf5 = empty_strided_cuda((1, 8, 1, 1, 8, 64), (4096, 8, 4096, 4096, 1, 64), torch.float32)
            # Topologically Sorted Source Nodes: [conv2d, group_norm], Original ATen: [aten.convolution, aten.native_group_norm]
            stream0 = get_raw_stream(0)
            triton_per_fused_convolution_native_group_norm_2.run(buf2, arg1_1, buf3, buf4, buf5, 4096, 128, stream=stream0)
            buf6 = empty_strided_cuda((1, 8, 1, 1, 8), (64, 8, 64, 64, 1), torch.float32)
            buf7 = empty_strided_cuda((1, 8, 1, 1, 8), (64, 8, 64, 64, 1), torch.float32)
            buf8 = empty_strided_cuda((1, 8, 1, 1, 8), (64, 8, 64, 64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [conv2d, group_norm], Original ATen: [aten.convolution, aten.native_group_norm]
            stream0 = get_raw_stream(0)
            triton_per_fused_convolution_native_group_norm_3.run(buf3, buf4, buf5, buf6, buf7, buf8, 64, 64, stream=stream0)
            del buf3
            del buf4
            del buf5
            buf9 = empty_strided_cuda((1, 8, 1, 1), (8, 1, 8, 8), torch.float32)
            buf10 = empty_strided_cuda((1, 8, 1, 1), (8, 1, 8, 8), torch.float32)
            # Topologically Sorted Source Nodes: [conv2d, group_norm], Original ATen: [aten.convolution, aten.native_group_norm]
            stream0 = get_raw_stream(0)
            triton_per_fused_convolution_native_group_norm_4.run(buf6, buf7, buf8, buf9, buf10, 8, 8, stream=stream0)
            del buf6
            del buf7
            del buf8
            buf13 = empty_strided_cuda((1, 128, 64, 64), (524288, 1, 8192, 128), torch.float16)
            # Topologically Sorted Source Nodes: [conv2d, group_norm, h], Original ATen: [aten.convolution, aten.native_group_norm, aten.silu]
            stream0 = get_raw_stream(0)
            triton_poi_fused_convolution_native_group_norm_silu_5.run(buf2, arg1_1, buf9, buf10, arg3_1, arg4_1, buf13, 524288, stream=stream0)
            del arg1_1
            del arg3_1
            del arg4_1
            del buf10
            del buf9
            buf14 = empty_strided_cuda((128, 128, 3, 3), (1152, 1, 384, 128), torch.float16)
            # Topologically Sorted Source Nodes: [h, conv2d_1], Original ATen: [aten.silu, aten.convolution]
            stream0 = get_raw_stream(0)
            triton_poi_fused_convolution_silu_6.run(arg5_1, buf14, 16384, 9, stream=stream0)
            del arg5_1
            # Topologically Sorted Source Nodes: [h, conv2d_1], Original ATen: [aten.silu, aten.convolution]
            buf15 = extern_kernels.convolution(buf13, buf14, stride=(1, 1), padding=(1, 1), dilation=(1, 1), transposed=False, output_padding=(0, 0), groups=1, bias=None)
            assert_size_stride(buf15, (1, 128, 64, 64), (524288, 1, 8192, 128), 'torch.ops.aten.convolution.default')
            del buf14
            buf16 = reinterpret_tensor(buf2, (1, 128, 64, 64), (524288, 4096, 64, 1), 0); del buf2  # reuse
            # Topologically Sorted Source Nodes: [h, conv2d_1, silu_1, h_1], Original ATen: [aten.silu, aten.convolution, aten.add]
            stream0 = get_raw_stream(0)
            triton_poi_fused_add_convolution_silu_7.run(buf13, buf15, arg6_1, buf16, 4096, 128, stream=stream0)
            del arg6_1
            buf17 = reinterpret_tensor(buf15, (4096, 128), (128, 1), 0); del buf15  # reuse
            # Topologically Sorted Source Nodes: [h, conv2d_1, silu_1, h_1, flatten, t, linear], Original ATen: [aten.silu, aten.convolution, aten.add, aten.view, aten.transpose, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf16, (4096, 128), (1, 4096), 0), reinterpret_tensor(arg7_1, (128, 128), (1, 128), 0), out=buf17)
            del arg7_1
            buf18 = reinterpret_tensor(buf13, (4096, 128), (128, 1), 0); del buf13  # reuse
            # Topologically Sorted Source Nodes: [h, conv2d_1, silu_1, h_1, flatten, t, linear_1], Original ATen: [aten.silu, aten.convolution, aten.add, aten.view, aten.transpose, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf16, (4096, 128), (1, 4096), 0), reinterpret_tensor(arg9_1, (128, 128), (1, 128), 0), out=buf18)
            del arg9_1
            buf19 = empty_strided_cuda((1, 4096, 128), (524288, 128, 1), torch.float32)
            # Topologically Sorted Source Nodes: [linear, a], Original ATen: [aten._unsafe_view, aten.add, aten._to_copy, aten.mul]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy__unsafe_view_add_mul_8.run(buf17, arg8_1, buf19, 524288, stream=stream0)
            del arg8_1
            del buf17
            buf20 = empty_strided_cuda((1, 128, 4096), (524288, 4096, 1), torch.float32)
            # Topologically Sorted Source Nodes: [linear_1, a], Original ATen: [aten._unsafe_view, aten.add, aten._to_copy, aten.transpose, aten.mul]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy__unsafe_view_add_mul_transpose_9.run(buf18, arg10_1, buf20, 128, 4096, stream=stream0)
            del arg10_1
            del buf18
            buf21 = empty_strided_cuda((4096, 4096), (4096, 1), torch.float32)
            # Topologically Sorted Source Nodes: [linear, a, linear_1], Original ATen: [aten._unsafe_view, aten.add, aten._to_copy, aten.mul, aten.bmm, aten.transpose]
            extern_kernels.mm(reinterpret_tensor(buf19, (4096, 128), (128, 1), 0), reinterpret_tensor(buf20, (128, 4096), (4096, 1), 0), out=buf21)
            del buf19
            del buf20
            buf26 = reinterpret_tensor(buf21, (1, 4096, 4096), (16777216, 4096, 1), 0); del buf21  # reuse
            # Topologically Sorted Source Nodes: [a], Original ATen: [aten.bmm, aten._safe_softmax, prims.prepare_softmax_online, aten.sub, aten.exp]
            stream0 = get_raw_stream(0)
            triton_red_fused__safe_softmax_bmm_exp_prepare_softmax_online_sub_10.run(buf26, 4096, 4096, stream=stream0)
            buf25 = empty_strided_cuda((4096, 128), (128, 1), torch.float16)
            # Topologically Sorted Source Nodes: [h, conv2d_1, silu_1, h_1, flatten, t, linear_2], Original ATen: [aten.silu, aten.convolution, aten.add, aten.view, aten.transpose, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf16, (4096, 128), (1, 4096), 0), reinterpret_tensor(arg11_1, (128, 128), (1, 128), 0), out=buf25)
            del arg11_1
            buf27 = empty_strided_cuda((1, 4096, 128), (524288, 128, 1), torch.float32)
            # Topologically Sorted Source Nodes: [linear_2, a], Original ATen: [aten._unsafe_view, aten.add, aten._to_copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy__unsafe_view_add_11.run(buf25, arg12_1, buf27, 524288, stream=stream0)
            del arg12_1
            buf28 = empty_strided_cuda((4096, 128), (128, 1), torch.float32)
            # Topologically Sorted Source Nodes: [a, linear_2], Original ATen: [aten.bmm, aten._safe_softmax, aten.sub, aten.exp, aten._unsafe_view, aten.add, aten._to_copy]
            extern_kernels.mm(reinterpret_tensor(buf26, (4096, 4096), (4096, 1), 0), reinterpret_tensor(buf27, (4096, 128), (128, 1), 0), out=buf28)
            del buf26
            del buf27
            buf29 = reinterpret_tensor(buf25, (1, 4096, 128), (524288, 128, 1), 0); del buf25  # reuse
            # Topologically Sorted Source Nodes: [h, conv2d_1, silu_1, h_1, flatten, t, a, t_1], Original ATen: [aten.silu, aten.convolution, aten.add, aten.view, aten.transpose, aten.bmm, aten._to_copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_add_bmm_convolution_silu_transpose_view_12.run(buf16, buf28, buf29, 4096, 128, stream=stream0)
            del buf28
            buf30 = empty_strided_cuda((4096, 512), (512, 1), torch.float16)
            # Topologically Sorted Source Nodes: [h, conv2d_1, silu_1, h_1, flatten, t, a, t_1, linear_3], Original ATen: [aten.silu, aten.convolution, aten.add, aten.view, aten.transpose, aten.bmm, aten._to_copy, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf29, (4096, 128), (128, 1), 0), reinterpret_tensor(arg13_1, (128, 512), (1, 128), 0), out=buf30)
            del arg13_1
            buf31 = reinterpret_tensor(buf30, (1, 4096, 512), (2097152, 512, 1), 0); del buf30  # reuse
            # Topologically Sorted Source Nodes: [linear_3, gelu], Original ATen: [aten._unsafe_view, aten.add, aten.gelu]
            stream0 = get_raw_stream(0)
            triton_poi_fused__unsafe_view_add_gelu_13.run(buf31, arg14_1, 2097152, stream=stream0)
            del arg14_1
            buf32 = reinterpret_tensor(buf16, (4096, 128), (128, 1), 0); del buf16  # reuse
            # Topologically Sorted Source Nodes: [linear_3, gelu, linear_4], Original ATen: [aten._unsafe_view, aten.add, aten.gelu, aten.view, aten.t, aten.addmm]
            extern_kernels.addmm(arg16_1, reinterpret_tensor(buf31, (4096, 512), (512, 1), 0), reinterpret_tensor(arg15_1, (512, 128), (1, 512), 0), alpha=1, beta=1, out=buf32)
            del arg15_1
            del arg16_1
            del buf31
            buf33 = buf29; del buf29  # reuse
            # Topologically Sorted Source Nodes: [linear_4, t_2], Original ATen: [aten.view, aten.add]
            stream0 = get_raw_stream(0)
            triton_poi_fused_add_view_14.run(buf33, buf32, 524288, stream=stream0)
            del buf32
            buf34 = empty_strided_cuda((4, 128, 3, 3), (1152, 1, 384, 128), torch.float16)
            # Topologically Sorted Source Nodes: [linear_4, t_2, transpose_1, h_2, conv2d_2], Original ATen: [aten.view, aten.add, aten.transpose, aten.convolution]
            stream0 = get_raw_stream(0)
            triton_poi_fused_add_convolution_transpose_view_15.run(arg17_1, buf34, 512, 9, stream=stream0)
            del arg17_1
            # Topologically Sorted Source Nodes: [linear_4, t_2, transpose_1, h_2, conv2d_2], Original ATen: [aten.view, aten.add, aten.transpose, aten.convolution]
            buf35 = extern_kernels.convolution(reinterpret_tensor(buf33, (1, 128, 64, 64), (0, 1, 8192, 128), 0), buf34, stride=(1, 1), padding=(1, 1), dilation=(1, 1), transposed=False, output_padding=(0, 0), groups=1, bias=None)
            assert_size_stride(buf35, (1, 4, 64, 64), (16384, 1, 256, 4), 'torch.ops.aten.convolution.default')
            del buf33
            del buf34
            buf36 = empty_strided_cuda((1, 4, 64, 64), (16384, 4096, 64, 1), torch.float16)
            # Topologically Sorted Source Nodes: [linear_4, t_2, transpose_1, h_2, conv2d_2], Original ATen: [aten.view, aten.add, aten.transpose, aten.convolution]
            stream0 = get_raw_stream(0)
            triton_poi_fused_add_convolution_transpose_view_16.run(buf35, arg18_1, buf36, 4, 4096, stream=stream0)
            del arg18_1
            del buf35
        return (buf36, )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = rand_strided((128, 4, 3, 3), (36, 9, 3, 1), device='cuda:0', dtype=torch.float16)
    arg1_1 = rand_strided((128, ), (1, ), device='cuda:0', dtype=torch.float16)
    arg2_1 = rand_strided((1, 4, 64, 64), (16384, 4096, 64, 1), device='cuda:0', dtype=torch.float16)
    arg3_1 = rand_strided((128, ), (1, ), device='cuda:0', dtype=torch.float16)
    arg4_1 = rand_strided((128, ), (1, ), device='cuda:0', dtype=torch.float16)
    arg5_1 = rand_strided((128, 128, 3, 3), (1152, 9, 3, 1), device='cuda:0', dtype=torch.float16)
    arg6_1 = rand_strided((128, ), (1, ), device='cuda:0', dtype=torch.float16)
    arg7_1 = rand_strided((128, 128), (128, 1), device='cuda:0', dtype=torch.float16)
    arg8_1 = rand_strided((128, ), (1, ), device='cuda:0', dtype=torch.float16)
    arg9_1 = rand_strided((128, 128), (128, 1), device='cuda:0', dtype=torch.float16)
    arg10_1 = rand_strided((128, ), (1, ), device='cuda:0', dtype=torch.float16)
    arg11_1 = rand_strided((128, 128), (128, 1), device='cuda:0', dtype=torch.float16)
    arg12_1 = rand_strided((128, ), (1, ), device='cuda:0', dtype=torch.float16)
    arg13_1 = rand_strided((512, 128), (128, 1), device='cuda:0', dtype=torch.float16)
    arg14_1 = rand_strided((512, ), (1, ), device='cuda:0', dtype=torch.float16)
    arg15_1 = rand_strided((128, 512), (512, 1), device='cuda:0', dtype=torch.float16)
    arg16_1 = rand_strided((128, ), (1, ), device='cuda:0', dtype=torch.float16)
    arg17_1 = rand_strided((4, 128, 3, 3), (1152, 9, 3, 1), device='cuda:0', dtype=torch.float16)
    arg18_1 = rand_strided((4, ), (1, ), device='cuda:0', dtype=torch.float16)
    return [arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
