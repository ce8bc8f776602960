#include "core/analysis/findings/gemm_math_path.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace gpuscope {
namespace {

bool containsAny(const std::string& text, const auto& tokens) {
  return std::any_of(tokens.begin(), tokens.end(),
                     [&text](std::string_view token) { return text.find(token) != std::string::npos; });
}

}  // namespace

GemmMathPath gemmMathPath(std::string_view kernelName) {
  std::string name(kernelName);
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  static constexpr std::array<std::string_view, 3> kGemm = {"gemm", "matmul", "nvjet"};
  // Matrix-vector kernels are memory bound; tensor cores would not help them.
  if (!containsAny(name, kGemm) || name.find("gemv") != std::string::npos) return GemmMathPath::NotGemm;
  static constexpr std::array<std::string_view, 20> kTensor = {
      "hmma",   "imma",  "tf32",  "bf16",    "f16",      "fp8",       "e4m3",  "e5m2",  "s16816", "s1688",
      "h16816", "h1688", "i8816", "884gemm", "tensorop", "tensor_op", "wgmma", "gmma_", "nvjet",  "qmma"};
  if (containsAny(name, kTensor)) return GemmMathPath::TensorCore;
  static constexpr std::array<std::string_view, 5> kFp32 = {"sgemm", "simt", "ffma", "f32f32_f32f32", "float"};
  if (containsAny(name, kFp32)) return GemmMathPath::Fp32Simt;
  return GemmMathPath::Unknown;
}

}  // namespace gpuscope
