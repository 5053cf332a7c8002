# Writes the hand-made system-tier test traces of this folder (multi-kernel-*.json, cpu-idle-*.json).
import json, os
OUT = os.path.dirname(os.path.abspath(__file__))

class T:
    def __init__(self):
        self.ev = []; self.corr = 1
    def host(self, cat, name, ts, dur, **args):
        self.ev.append({"ph": "X", "cat": cat, "name": name, "pid": 1, "tid": 1,
                        "ts": float(ts), "dur": float(dur), "args": args})
    def py(self, name, ts, dur):
        self.host("python_function", name, ts, dur)
    def op(self, name, ts, dur, **args):
        self.host("cpu_op", name, ts, dur, **args)
    def launch(self, gcat, gname, launch_ts, gts, gdur, stream=7, rt="cudaLaunchKernel", rtdur=4, **gargs):
        c = self.corr; self.corr += 1
        self.host("cuda_runtime", rt, launch_ts, rtdur, correlation=c)
        a = {"correlation": c, "device": 0, "stream": stream}; a.update(gargs)
        self.ev.append({"ph": "X", "cat": gcat, "name": gname, "pid": 0, "tid": stream,
                        "ts": float(gts), "dur": float(gdur), "args": a})
    def kernel(self, name, launch_ts, gts, gdur, **kw):
        self.launch("kernel", name, launch_ts, gts, gdur, **kw)
    def save(self, fn, header):
        d = {"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3"}],
             "traceEvents": self.ev}
        with open(os.path.join(OUT, fn), 'w') as f:
            f.write(json.dumps(d, indent=None).replace('}, {', '},\n {'))
            f.write('\n')

# memcpy: compute kernel [0,1000]; 11 D2H transfers of 1 us from .item() at
# train.py(42) in nn.Module Head; one H2D of 60 us (pageable) from
# data.py(7); a cudaStreamSynchronize while the GPU is busy (no idle).
t = T()
t.op("aten::relu", 0, 5)
t.kernel("relu_kernel", 1, 0, 1000)
t.py("train.py(40): train_step", 10, 900)
t.py("nn.Module: Head_0", 20, 660)
for i in range(11):
    b = 100 + 50 * i
    t.py("train.py(42): forward", b, 40)
    t.py("<built-in method item of Tensor object at 0x7f00>", b + 1, 30)
    t.op("aten::item", b + 2, 25)
    t.op("aten::_local_scalar_dense", b + 3, 20)
    t.launch("gpu_memcpy", "Memcpy DtoH (Device -> Pageable)", b + 4, b + 10, 1,
             rt="cudaMemcpyAsync", bytes=4)
t.py("data.py(7): load", 700, 100)
t.op("aten::copy_", 701, 90)
t.launch("gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", 702, 800, 60,
         rt="cudaMemcpyAsync", bytes=1048576)
t.host("cuda_runtime", "cudaStreamSynchronize", 950, 5)
t.save("multi-kernel-memcpy.json", "")

def comm(fn, comp_end, c0, c1):
    t = T()
    t.op("aten::mm", 0, 5)
    t.kernel("sgemm_kernel", 1, 0, comp_end)
    t.op("record_param_comms", 10, 10, **{"Collective name": "allreduce", "In msg nelems": 1048576, "dtype": "Float"})
    t.kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)", 12, c0, c1 - c0, stream=20)
    t.save(fn, "")
comm("multi-kernel-comm-4.9.json", 951, 900, 1000)
comm("multi-kernel-comm-5.1.json", 949, 900, 1000)
comm("multi-kernel-comm-99us.json", 950, 901, 1000)

# sync: kernel [0,100]; host cudaDeviceSynchronize [50,250] from train.py(9);
# aten::add [255,275] launches the next kernel (launch [260,264]) at [300,400].
t = T()
t.op("aten::mul", 0, 5)
t.kernel("mul_kernel", 1, 0, 100)
t.py("train.py(9): step", 40, 240)
t.host("cuda_runtime", "cudaDeviceSynchronize", 50, 200)
t.op("aten::add", 255, 20)
t.kernel("add_kernel", 260, 300, 100)
t.save("multi-kernel-sync.json", "")

# launch-bound: one module launches 10 kernels of 5 us, one every 100 us;
# each launch call takes 90 us (host busy between kernels).
t = T()
t.op("aten::foreach_add", 0, 1000)
for i in range(10):
    t.kernel("tiny_kernel", 100 * i, 100 * i + 95, 5, rtdur=90)
t.save("cpu-idle-launch.json", "")

# kernel-fusion: modules launched one after another; every kernel runs right
# after its launch, so E2E is the sum of kernel times plus 10 us gaps.
t = T()
clock = [0]
def module(name, kernels):
    start = clock[0]
    t.py("nn.Module: " + name, start, 40 * len(kernels) + 10)
    for i, (op, kname, dur, dims) in enumerate(kernels):
        ts = start + 5 + 40 * i
        args = {}
        if dims:
            # Contiguous strides: the elementwise models index them.
            strides = [[d[1], 1] for d in dims]
            args = {"Input Dims": dims, "Input type": ["float"] * len(dims),
                    "Input Strides": strides}
        t.op(op, ts, 30, **args)
        t.kernel(kname, ts + 1, 10000 + clock[0] * 0 + len(t.ev) * 0 + gpu[0], dur)
        gpu[0] += dur + 10
    clock[0] += 40 * len(kernels) + 20
gpu = [0]
X = [[1024, 1024], [1024, 1024]]
EW = "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float> >"
MUL = "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float, float, float, at::native::MulFunctor<float> > >"
module("Block_0", [("aten::add", EW, 100, X), ("aten::mul", MUL, 100, X), ("aten::add", EW, 100, X)])
module("Attn_0", [("aten::add", EW, 10, X), ("aten::_flash", "flash_fwd_kernel", 50, None)])
module("Comm_0", [("aten::add", EW, 10, X), ("nccl:all_reduce", "ncclDevKernel_AllReduce_Sum_f32", 50, None)])
module("GemmPair_0", [("aten::mm", "sgemm_128x128_nn", 99, X), ("aten::mm", "sgemm_128x64_nn", 99, X)])
module("Triton_0", [("aten::add", "triton_poi_fused_add_0", 100, X), ("aten::mul", "triton_poi_fused_mul_1", 100, X)])
module("Partial_0", [("aten::add", EW, 101, X), ("aten::relu", "relu_kernel_a", 101, None), ("aten::sigmoid", "sigmoid_kernel_b", 101, None)])
module("LinearNorm_0", [("aten::mm", "sgemm_64x64_nn", 98, X), ("aten::native_layer_norm", "vectorized_layer_norm_kernel", 98, None)])
module("Small_0", [("aten::add", EW, 1, X), ("aten::mul", MUL, 1, X)])
t.save("kernel-fusion.json", "")

# fusion-instances: three instances of one module name. Chain_0 and Chain_1
# run the same add/mul/add sequence with different kernel times (300 us and
# 30 us); Chain_2 runs add/sub, so it is not an instance of that sequence.
# E2E = 300 + 30 + 100 kernel us + 7 gaps of 10 us = 500 us.
t = T()
clock = [0]
gpu = [0]
SUB = "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_sub<float> >"
module("Chain_0", [("aten::add", EW, 100, X), ("aten::mul", MUL, 100, X), ("aten::add", EW, 100, X)])
module("Chain_1", [("aten::add", EW, 10, X), ("aten::mul", MUL, 10, X), ("aten::add", EW, 10, X)])
module("Chain_2", [("aten::add", EW, 50, X), ("aten::sub", SUB, 50, X)])
t.save("fusion-instances.json", "")
