// Labels that tell kernels with one short name apart, on the spellings of real traces (loader2.sqlite's
// PyTorch kernels as nsys demangles them) and on the case: two CUTLASS kernels both "Kernel2".
#include "core/identity/kernel_label.h"

#include <gtest/gtest.h>

#include <set>

namespace gpuscope {
namespace {

const char* kReduce256 =
    "void at::native::reduce_kernel<(int)256, (int)2, at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
    "at::native::sum_functor<float, float, float>::operator ()(at::TensorIterator &)::[lambda(float, float) (instance "
    "1)]>, unsigned int, float, (int)4, (int)4>>(T3)";
const char* kReduceMean =
    "void at::native::reduce_kernel<(int)512, (int)1, at::native::ReduceOp<float, at::native::MeanOps<float, float, "
    "float, float>, unsigned int, float, (int)4, (int)4>>(T3)";
const char* kReduceSum =
    "void at::native::reduce_kernel<(int)512, (int)1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
    "at::native::sum_functor<float, float, float>::operator ()(at::TensorIterator &)::[lambda(float, float) (instance "
    "1)]>, unsigned int, float, (int)4, (int)4>>(T3)";

TEST(KernelLabel, TwoKernelsSharingAShortNameShowTheTemplateArgumentThatDiffers) {
  auto labels = distinguishingKernelLabels(
      {{"Kernel2", "void cutlass::Kernel2<cutlass_80_simt_sgemm_64x64_8x5_nn_align1>(T1::Params)"},
       {"Kernel2", "void cutlass::Kernel2<cutlass_80_simt_sgemm_128x128_8x4_nn_align1>(T1::Params)"},
       {"saxpy", "saxpy(float *, const float *, float, int)"}});
  ASSERT_EQ(labels.size(), 3u);
  EXPECT_EQ(labels[0], "Kernel2<cutlass_80_simt_sgemm_64x64_8x5_nn_align1>");
  EXPECT_EQ(labels[1], "Kernel2<cutlass_80_simt_sgemm_128x128_8x4_nn_align1>");
  EXPECT_EQ(labels[2], "saxpy");  // alone with its short name: the short name
}

TEST(KernelLabel, NestedTemplatesAreFollowedDownToWhatDiffers) {
  auto labels = distinguishingKernelLabels(
      {{"reduce_kernel", kReduce256}, {"reduce_kernel", kReduceMean}, {"reduce_kernel", kReduceSum}});
  EXPECT_EQ(labels[0], "reduce_kernel<256, \u2026>");
  EXPECT_EQ(labels[1], "reduce_kernel<512, \u2026, ReduceOp<\u2026, MeanOps<\u2026>, \u2026>>");
  EXPECT_EQ(labels[2], "reduce_kernel<512, \u2026, ReduceOp<\u2026, func_wrapper_t<\u2026>, \u2026>>");
}

TEST(KernelLabel, CastsOnLiteralsGoAndParametersTellOverloadsApart) {
  auto labels = distinguishingKernelLabels(
      {{"nchwToNhwcKernel",
        "void cudnn::engines_precompiled::nchwToNhwcKernel<float, float, float, (bool)0, (bool)1, "
        "(cudnnKernelDataType_t)0>(cudnn::engines_precompiled::nchw2nhwc_params_t<T3>, const T1 *, T2 *)"},
       {"nchwToNhwcKernel",
        "void cudnn::engines_precompiled::nchwToNhwcKernel<float, float, float, (bool)0, (bool)1, "
        "(cudnnKernelDataType_t)2>(cudnn::engines_precompiled::nchw2nhwc_params_t<T3>, const T1 *, T2 *)"},
       {"scale", "scale(float *, int)"},
       {"scale", "scale(double *, int)"}});
  EXPECT_EQ(labels[0], "nchwToNhwcKernel<\u2026, 0>");
  EXPECT_EQ(labels[1], "nchwToNhwcKernel<\u2026, 2>");
  EXPECT_EQ(labels[2], "scale(float *, \u2026)");
  EXPECT_EQ(labels[3], "scale(double *, \u2026)");
}

TEST(KernelLabel, OneKernelKeepsOneLabelAndWhatCannotBeShortenedIsShownWhole) {
  auto labels = distinguishingKernelLabels({{"k", "void a::k<int>(int)"},
                                            {"k", "void b::k<int>(int)"},  // only the namespace differs
                                            {"k", "void a::k<int>(int)"},
                                            {"other", "something unparsed"}});
  EXPECT_EQ(labels[0], "void a::k<int>(int)");
  EXPECT_EQ(labels[1], "void b::k<int>(int)");
  EXPECT_EQ(labels[2], labels[0]);
  EXPECT_EQ(labels[3], "other");
}

TEST(KernelLabel, LabelsOfDifferentKernelsNeverMeet) {
  std::vector<KernelSpelling> spellings = {
      {"reduce_kernel", kReduce256},
      {"reduce_kernel", kReduceMean},
      {"reduce_kernel", kReduceSum},
      {"elementwise_kernel",
       "void at::native::elementwise_kernel<(int)128, (int)2, void at::native::gpu_kernel_impl_nocast<at::native::"
       "BUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float>>>(at::TensorIteratorBase "
       "&, const T1 &)::[lambda(int) (instance 1)]>(int, T3)"},
      {"elementwise_kernel",
       "void at::native::elementwise_kernel<(int)128, (int)2, void at::native::gpu_kernel_impl_nocast<at::native::"
       "CUDAFunctor_add<float>>(at::TensorIteratorBase &, const T1 &)::[lambda(int) (instance 1)]>(int, T3)"},
      {"vectorized_elementwise_kernel",
       "void at::native::vectorized_elementwise_kernel<(int)4, at::native::<unnamed>::launch_clamp_scalar(at::"
       "TensorIteratorBase &, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::[lambda() (instance "
       "1)]::operator ()() const::[lambda() (instance 7)]::operator ()() const::[lambda(float) (instance 1)], "
       "std::array<char *, (unsigned long)2>>(int, T2, T3)"},
      {"vectorized_elementwise_kernel",
       "void at::native::vectorized_elementwise_kernel<(int)4, at::native::FillFunctor<float>, std::array<char *, "
       "(unsigned long)1>>(int, T2, T3)"},
  };
  auto labels = distinguishingKernelLabels(spellings);
  std::set<std::string> distinct(labels.begin(), labels.end());
  EXPECT_EQ(distinct.size(), spellings.size());
  EXPECT_EQ(labels[3], "elementwise_kernel<\u2026, gpu_kernel_impl_nocast<BUnaryFunctor<\u2026>>\u2026>");
  EXPECT_EQ(labels[4], "elementwise_kernel<\u2026, gpu_kernel_impl_nocast<CUDAFunctor_add<\u2026>>\u2026>");
  EXPECT_EQ(labels[5], "vectorized_elementwise_kernel<\u2026, launch_clamp_scalar(\u2026)\u2026, \u2026>");
  EXPECT_EQ(labels[6], "vectorized_elementwise_kernel<\u2026, FillFunctor<\u2026>, \u2026>");
  for (size_t k = 0; k < labels.size(); ++k)
    EXPECT_EQ(labels[k].rfind(std::string(spellings[k].shortName), 0), 0u) << labels[k];
}

}  // namespace
}  // namespace gpuscope
