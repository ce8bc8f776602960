#include "core/identity/kernel_signature.h"

#include <gtest/gtest.h>

namespace gpuscope {
namespace {

TEST(KernelSignature, NcuAndGccSpellingsMeet) {
  EXPECT_EQ(canonicalKernelSignature("transposeNaive(float *, const float *, int, int)"),
            canonicalKernelSignature("transposeNaive(float*, float const*, int, int)"));
  EXPECT_EQ(canonicalKernelSignature("saxpy(float *, const float *, float, int)"),
            "saxpy(float*,const float*,float,int)");
}

TEST(KernelSignature, TemplatesAndScopesKeepTheirShape) {
  EXPECT_EQ(canonicalKernelSignature("void at::native::kernel<float, 4>(at::Tensor const&, float *)"),
            canonicalKernelSignature("void at::native::kernel<float,4>(const at::Tensor &, float*)"));
}

TEST(KernelSignature, DifferentKernelsStayApart) {
  EXPECT_NE(canonicalKernelSignature("f(float *, int)"), canonicalKernelSignature("f(int, float *)"));
  EXPECT_NE(canonicalKernelSignature("f(float *)"), canonicalKernelSignature("g(float *)"));
  EXPECT_NE(canonicalKernelSignature("f(float **)"), canonicalKernelSignature("f(float *)"));
}

}  // namespace
}  // namespace gpuscope
