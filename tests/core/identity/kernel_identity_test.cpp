// Kernel identity against real names: every kernel of the loader pair as nsys (cu++filt), the PyTorch
// profiler (GCC's demangler) and ncu spell it, read from the fixtures, must meet its own other spellings
// and no other kernel's.
#include "core/identity/kernel_identity.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "core/model/trace_file.h"
#include "core/ncu/ncu_report.h"
#include "core/open/open_trace.h"
#include "tests/core/testing/test_files.h"

namespace gpuscope {
namespace {

using testing::kFixtures;

std::set<std::string> kernelNames(const std::string& path) {
  auto db = openTrace(path).connect();
  auto stmt = db.prepare(
      "SELECT DISTINCT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL AS k JOIN StringIds AS s ON s.id = k.demangledName");
  std::set<std::string> names;
  while (stmt.step()) names.emplace(stmt.text(0));
  return names;
}

std::set<std::string> ncuNames(const std::string& path) {
  std::set<std::string> names;
  for (const auto& kernel : readNcuCsvFile(path).kernels) names.insert(kernel.name);
  return names;
}

// Each name of FROM meets exactly one name of TO, and distinct names of FROM meet distinct names of TO.
void expectOneToOne(const std::set<std::string>& from, const std::set<std::string>& to) {
  std::map<std::string, std::vector<std::string>> toByIdentity;
  for (const auto& name : to) toByIdentity[kernelIdentity(name)].push_back(name);
  for (const auto& [identity, names] : toByIdentity) EXPECT_EQ(names.size(), 1u) << "merged: " << names[0];
  std::set<std::string> used;
  for (const auto& name : from) {
    auto it = toByIdentity.find(kernelIdentity(name));
    ASSERT_NE(it, toByIdentity.end()) << "no partner for " << name << "\n  identity " << kernelIdentity(name);
    EXPECT_TRUE(used.insert(it->second[0]).second) << "two kernels meet " << it->second[0];
  }
}

TEST(KernelIdentity, NsysAndPyTorchProfilerSpellingsOfTheLoaderRunPairOneToOne) {
  auto nsys = kernelNames(kFixtures + "/nsys/loader2.sqlite");
  auto kineto = kernelNames(kFixtures + "/kineto/loader2_kineto.json.gz");
  ASSERT_EQ(nsys.size(), kineto.size());
  expectOneToOne(nsys, kineto);
  expectOneToOne(kineto, nsys);
}

TEST(KernelIdentity, EveryNcuKernelOfTheLoaderRunMeetsOneNsysKernel) {
  auto ncu = ncuNames(kFixtures + "/ncu/loader2_ncu_metrics.csv");
  ASSERT_FALSE(ncu.empty());
  expectOneToOne(ncu, kernelNames(kFixtures + "/nsys/loader2.sqlite"));
  expectOneToOne(ncu, kernelNames(kFixtures + "/kineto/loader2_kineto.json.gz"));
}

TEST(KernelIdentity, EachListedSpellingDifferenceMeets) {
  auto same = [](std::string_view a, std::string_view b) {
    EXPECT_EQ(kernelIdentity(a), kernelIdentity(b)) << a << "\n" << b;
  };
  // (int)4 / 4, char* / char *, 1ul / (unsigned long)1, > > / >>, namespaces ncu leaves out.
  same(
      "void at::native::vectorized_elementwise_kernel<(int)4, at::native::FillFunctor<float>, std::array<char *, "
      "(unsigned long)1>>(int, T2, T3)",
      "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, std::array<char*, 1ul> >(int, "
      "at::native::FillFunctor<float>, std::array<char*, 1ul>)");
  same("void at::vectorized_elementwise_kernel<4, at::FillFunctor<float>, std::array<char *, 1>>(int, T2, T3)",
       "void at::native::vectorized_elementwise_kernel<(int)4, at::native::FillFunctor<float>, std::array<char *, "
       "(unsigned long)1>>(int, T2, T3)");
  // Anonymous namespaces, lambdas.
  same("void at::<unnamed>::max_pool_forward_nchw<float, int>(T2, const T1 *, long)",
       "void at::native::(anonymous namespace)::max_pool_forward_nchw<float, int>(int, float const*, long)");
  same("void f<g(int)::[lambda(float) (instance 1)]>(int, T1)",
       "void f<g(int)::{lambda(float)#1}>(int, g(int)::{lambda(float)#1})");
  // T1::Params abbreviations; bools, enum casts and unsigned suffixes.
  same(
      "void cutlass::Kernel2<cutlass_80_simt_sgemm_64x64_8x5_nn_align1>(T1::Params)",
      "void "
      "cutlass::Kernel2<cutlass_80_simt_sgemm_64x64_8x5_nn_align1>(cutlass_80_simt_sgemm_64x64_8x5_nn_align1::Params)");
  same("void k<float, (bool)0, (unsigned int)1, (cudnnKernelDataType_t)2>(T1 *)",
       "void k<float, false, 1u, (cudnnKernelDataType_t)2>(float*)");
  same("void k<float, 0, 1, 2>(T1 *)", "void k<float, false, 1u, (cudnnKernelDataType_t)2>(float*)");
  same("void k<float const*>()", "void k<const float *>()");
}

TEST(KernelIdentity, DifferentKernelsStayApart) {
  auto apart = [](std::string_view a, std::string_view b) {
    EXPECT_NE(kernelIdentity(a), kernelIdentity(b)) << a << "\n" << b;
  };
  apart("void k<(int)4>(int)", "void k<(int)2>(int)");
  apart("void k<float>(T1 *)", "void k<double>(T1 *)");
  apart("void f<g(int)::[lambda(float) (instance 1)]>(int, T1)",
        "void f<g(int)::[lambda(float) (instance 2)]>(int, T1)");
  apart("void f<g(int)::[lambda(float) (instance 1)]>(int, T1)",
        "void f<h(int)::[lambda(float) (instance 1)]>(int, T1)");
  apart("void k<Op<float>::type>()", "void k<Op<double>::type>()");
  apart("void k<float *>()", "void k<float **>()");
  apart("kernelA", "kernelB");
}

TEST(KernelIdentity, MangledNamesWinWhereBothSidesHaveThem) {
  EXPECT_TRUE(sameKernel("_Z1fPf", "f(float *)", "_Z1fPf", "f(float*)"));
  EXPECT_FALSE(sameKernel("_Z1fPf", "f(float *)", "_Z1fPd", "f(double *)"));  // identity alone would merge them
  EXPECT_TRUE(sameKernel("", "void k<(int)4>(int)", "_Z1kILi4EEvi", "void k<4>(int)"));
}

TEST(KernelIdentity, ShortNamesAreTheKernelsOwnName) {
  EXPECT_EQ(kernelShortName("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
                            "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)"),
            "vectorized_elementwise_kernel");
  EXPECT_EQ(kernelShortName("void (anonymous namespace)::softmax_warp_forward<float, 4>(float*)"),
            "softmax_warp_forward");
  EXPECT_EQ(kernelShortName("sm80_xmma_gemm_f32f32_f32f32_f32_nt_n_tilesize32x32x8"),
            "sm80_xmma_gemm_f32f32_f32f32_f32_nt_n_tilesize32x32x8");
  EXPECT_EQ(kernelShortName("transposeNaive(float *, const float *, int, int)"), "transposeNaive");
}

}  // namespace
}  // namespace gpuscope

#include "core/diff/run_diff.h"
#include "core/model/trace_loader.h"
#include "core/ncu/ncu_import.h"

namespace gpuscope {
namespace {

TEST(KernelIdentityInUse, DiffByDemangledPairsEveryKernelOfNsysAndPyTorchRuns) {
  auto nsys = loadTrace(kFixtures + "/nsys/loader2.sqlite");
  auto kineto = openTrace(kFixtures + "/kineto/loader2_kineto.json.gz").load();
  auto diff = diffRuns(*nsys, *kineto, DiffBy::DemangledKernel);
  int64_t matched = 0;
  for (const auto& row : diff.rows) {
    EXPECT_EQ(row.presence, DiffPresence::Both) << row.name;
    EXPECT_EQ(row.a.count, row.b.count) << row.name;
    matched += row.b.count;
    EXPECT_EQ(rowInstances(*kineto, row, DiffBy::DemangledKernel).size(), static_cast<size_t>(row.b.count)) << row.name;
  }
  EXPECT_EQ(static_cast<size_t>(matched), kineto->counts().kernels);
  EXPECT_EQ(static_cast<size_t>(matched), nsys->counts().kernels);
}

TEST(KernelIdentityInUse, NcuReportOfAnotherRunAttachesEveryLaunch) {
  auto report = readNcuCsvFile(kFixtures + "/ncu/loader2_ncu_metrics.csv");
  auto launches = readTraceKernelLaunches(openTraceFile(kFixtures + "/nsys/loader2.sqlite"));
  auto match = matchNcuKernels(report, launches, "test");
  EXPECT_EQ(match.rows.size(), report.kernels.size());
  EXPECT_TRUE(match.unknownNames.empty());
  for (size_t i = 0; i < match.rows.size() && i < report.kernels.size(); ++i) {
    EXPECT_EQ(match.rows[i].bytes[0], report.kernels[i].value("dram__bytes.sum"));
  }
}

}  // namespace
}  // namespace gpuscope
