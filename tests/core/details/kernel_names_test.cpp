// Kernels by their real (demangled) name on loader2.sqlite, a PyTorch run where one short name covers several
// kernels ("Kernel2" is a CUTLASS SGEMM, "reduce_kernel" three different reductions): against SQL.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/db/sqlite_database.h"
#include "core/details/kernel_list.h"
#include "core/model/trace_loader.h"
#include "core/query/event_find.h"

namespace gpuscope {
namespace {

const std::string kJoin =
    " FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName JOIN StringIds d ON d.id = "
    "k.demangledName";

std::shared_ptr<const Trace> loader2() {
  static std::shared_ptr<const Trace> trace = loadTrace(std::string(GPUSCOPE_FIXTURES) + "/nsys/loader2.sqlite");
  return trace;
}

int64_t sqlInt(const std::string& sql) {
  auto stmt = loader2()->database().prepare(sql);
  EXPECT_TRUE(stmt.step()) << sql;
  return stmt.int64(0);
}

TEST(KernelNames, EveryKernelCarriesItsDemangledName) {
  const Trace& trace = *loader2();
  size_t checked = 0;
  for (const EventRef& ref : kernelInstances(trace)) {
    auto stmt = trace.database().prepare("SELECT d.value" + kJoin + " WHERE k.rowid = ?");
    stmt.bind(1, static_cast<int64_t>(trace.lane(ref).row[ref.index]));
    ASSERT_TRUE(stmt.step());
    ASSERT_EQ(trace.longName(ref), stmt.text(0));
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<size_t>(sqlInt("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL")));
}

TEST(KernelNames, GroupingByTheRealKernelKeepsDifferentKernelsOfOneShortNameApart) {
  const Trace& trace = *loader2();
  auto instances = kernelInstances(trace);
  auto byShort = summarizeKernels(trace, instances);
  auto byReal = summarizeKernels(trace, instances, KernelGrouping::DemangledName);
  EXPECT_EQ(byShort.size(), static_cast<size_t>(sqlInt("SELECT count(DISTINCT k.shortName)" + kJoin)));
  EXPECT_EQ(byReal.size(), static_cast<size_t>(sqlInt("SELECT count(DISTINCT k.demangledName)" + kJoin)));
  size_t reductions = 0;
  for (const auto& group : byReal) {
    if (trace.string(group.name) != "reduce_kernel") continue;
    ++reductions;
    EXPECT_EQ(static_cast<int64_t>(group.count),
              sqlInt("SELECT count(*)" + kJoin + " WHERE d.value = '" + trace.string(group.longName) + "'"));
  }
  EXPECT_EQ(reductions, static_cast<size_t>(sqlInt("SELECT count(DISTINCT k.demangledName)" + kJoin +
                                                   " WHERE s.value = 'reduce_kernel'")));
  EXPECT_GT(reductions, 1u);
}

TEST(KernelNames, GroupsOfOneShortNameAreLabelledApart) {
  const Trace& trace = *loader2();
  auto byReal = summarizeKernels(trace, kernelInstances(trace), KernelGrouping::DemangledName);
  std::set<std::string> labels;
  size_t sharing = 0;
  for (const auto& group : byReal) {
    EXPECT_TRUE(labels.insert(group.label).second) << "two groups read " << group.label;
    const std::string& shortName = trace.string(group.name);
    EXPECT_EQ(group.label.rfind(shortName, 0), 0u) << group.label;
    sharing += group.label != shortName;
  }
  // reduce_kernel (3), vectorized_elementwise_kernel (3), elementwise_kernel (2), nchwToNhwcKernel (2).
  EXPECT_EQ(sharing, 10u);
  // By short name, the label is the short name.
  for (const auto& group : summarizeKernels(trace, kernelInstances(trace)))
    EXPECT_EQ(group.label, trace.string(group.name));
}

TEST(KernelNames, FindMatchesKernelsByTheirDemangledNameToo) {
  const Trace& trace = *loader2();
  FindResult found = findEvents(trace, NamePattern("sgemm", FindMode::Substring));
  std::set<std::string> names;
  for (const EventRef& ref : found.matches()) {
    ASSERT_EQ(trace.track(ref.track).kind, TrackKind::GpuKernels);
    names.insert(trace.name(ref));
  }
  // The CUTLASS SIMT SGEMM is "Kernel2" by its short name: found only through its demangled name.
  EXPECT_TRUE(names.count("Kernel2"));
  EXPECT_EQ(static_cast<int64_t>(found.size()),
            sqlInt("SELECT count(*)" + kJoin + " WHERE s.value LIKE '%sgemm%' OR d.value LIKE '%sgemm%'"));
}

}  // namespace
}  // namespace gpuscope
