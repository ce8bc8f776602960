#pragma once
// Which math units a GEMM kernel uses, told from its name as cuBLAS, cuDNN, CUTLASS and cuBLASLt
// spell them: tensor-core kernels carry their MMA type or shape (hmma, tf32, bf16, s16816, s1688,
// tensorop, wgmma, nvjet ...), FP32 kernels on the FFMA pipes say sgemm, simt, ffma or f32f32
// without tf32 (ampere_sgemm_128x64_nn, cutlass_80_simt_sgemm_..., sm80_xmma_gemm_f32f32_f32f32_f32_..._ffma).
#include <string_view>

namespace gpuscope {

enum class GemmMathPath {
  NotGemm,     // no GEMM, GEMV-free matrix multiply or convolution name
  TensorCore,  // a tensor-core kernel
  Fp32Simt,    // FP32 on the FFMA pipes: tensor cores unused
  Unknown,     // a GEMM whose name does not say (a Triton or custom kernel)
};

GemmMathPath gemmMathPath(std::string_view kernelName);

}  // namespace gpuscope
