// KernelIndex and the kernel table's queries on loader2.sqlite (several kernels per short name, eight
// streams): the numbering, the time order, name and range filters, sorts and range summaries, against SQL
// and against kernelInstances / summarizeKernels.
#include "core/query/kernel_rows.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/db/sqlite_database.h"
#include "core/model/trace_loader.h"

namespace gpuscope {
namespace {

const std::string kJoin =
    " FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName JOIN StringIds d ON d.id = "
    "k.demangledName";

const Trace& loader2() {
  static std::shared_ptr<const Trace> trace = loadTrace(std::string(GPUSCOPE_FIXTURES) + "/nsys/loader2.sqlite");
  return *trace;
}

int64_t sqlInt(const std::string& sql) {
  auto stmt = loader2().database().prepare(sql);
  EXPECT_TRUE(stmt.step()) << sql;
  return stmt.int64(0);
}

// The middle third of the kernels' time: a range that cuts through the trace.
TimeInterval middleThird() {
  TimeNs first = sqlInt("SELECT min(start) FROM CUPTI_ACTIVITY_KIND_KERNEL");
  TimeNs last = sqlInt("SELECT max(end) FROM CUPTI_ACTIVITY_KIND_KERNEL");
  return {first + (last - first) / 3, first + 2 * (last - first) / 3};
}

std::string overlapping(TimeInterval range) {
  return " WHERE k.start < " + std::to_string(range.end) + " AND (k.end > " + std::to_string(range.start) +
         " OR k.start >= " + std::to_string(range.start) + ")";
}

TEST(KernelIndex, NumbersEveryKernelOnceInTheOrderOfKernelInstances) {
  const Trace& trace = loader2();
  KernelIndex index(trace);
  std::vector<EventRef> instances = kernelInstances(trace);
  ASSERT_EQ(index.size(), sqlInt("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
  ASSERT_EQ(index.byStart().size(), instances.size());
  for (size_t row = 0; row < instances.size(); ++row) {
    EXPECT_EQ(index.event(index.byStart()[row]), instances[row]) << row;
    EXPECT_EQ(index.find(instances[row]), index.byStart()[row]);
  }
  for (uint32_t t = 0; t < trace.tracks().size(); ++t) {
    if (trace.track(t).kind != TrackKind::GpuKernels && trace.track(t).eventCount() > 0) {
      EXPECT_FALSE(index.find(EventRef{t, 0, 0}).has_value()) << "track " << t;
    }
  }
  EXPECT_EQ(static_cast<int64_t>(index.names().size()),
            sqlInt("SELECT count(*) FROM (SELECT shortName FROM CUPTI_ACTIVITY_KIND_KERNEL UNION "
                   "SELECT demangledName FROM CUPTI_ACTIVITY_KIND_KERNEL)"));
}

TEST(KernelRows, NameFilterKeepsKernelsByShortOrDemangledName) {
  const Trace& trace = loader2();
  KernelIndex index(trace);
  KernelRowQuery query;
  query.acceptedNames.assign(trace.stringCount(), 0);
  for (StringId id : index.names()) {
    if (trace.string(id).find("sgemm") != std::string::npos) query.acceptedNames[id] = 1;
  }
  std::vector<uint32_t> rows = selectKernelRows(trace, index, query);
  EXPECT_EQ(static_cast<int64_t>(rows.size()),
            sqlInt("SELECT count(*)" + kJoin + " WHERE s.value LIKE '%sgemm%' OR d.value LIKE '%sgemm%'"));
  EXPECT_GT(rows.size(), 0u);
  EXPECT_TRUE(std::is_sorted(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
    return trace.start(index.event(a)) < trace.start(index.event(b));
  }));
}

TEST(KernelRows, RangeKeepsTheKernelsThatOverlapIt) {
  const Trace& trace = loader2();
  KernelIndex index(trace);
  KernelRowQuery query;
  query.range = middleThird();
  std::vector<uint32_t> rows = selectKernelRows(trace, index, query);
  int64_t expected = sqlInt("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k" + overlapping(query.range));
  EXPECT_EQ(static_cast<int64_t>(rows.size()), expected);
  EXPECT_LT(expected, static_cast<int64_t>(index.size()));
  EXPECT_GT(expected, 0);
}

TEST(KernelRows, SortsByDurationAndByNameWithTiesInTimeOrder) {
  const Trace& trace = loader2();
  KernelIndex index(trace);
  KernelRowQuery query;
  query.key = KernelSortKey::Duration;
  query.descending = true;
  std::vector<uint32_t> rows = selectKernelRows(trace, index, query);
  ASSERT_EQ(rows.size(), index.size());
  auto duration = [&](uint32_t k) { return trace.end(index.event(k)) - trace.start(index.event(k)); };
  EXPECT_EQ(duration(rows.front()), sqlInt("SELECT max(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
  EXPECT_EQ(duration(rows.back()), sqlInt("SELECT min(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
  for (size_t i = 1; i < rows.size(); ++i) {
    ASSERT_GE(duration(rows[i - 1]), duration(rows[i]));
    if (duration(rows[i - 1]) == duration(rows[i])) {
      ASSERT_LE(trace.start(index.event(rows[i - 1])), trace.start(index.event(rows[i])));
    }
  }

  query.key = KernelSortKey::Name;
  query.descending = false;
  rows = selectKernelRows(trace, index, query);
  auto stmt = trace.database().prepare("SELECT min(s.value COLLATE NOCASE)" + kJoin);
  ASSERT_TRUE(stmt.step());
  EXPECT_EQ(trace.name(index.event(rows.front())), stmt.text(0));

  query.key = KernelSortKey::Start;
  query.descending = true;
  rows = selectKernelRows(trace, index, query);
  EXPECT_EQ(trace.start(index.event(rows.front())), sqlInt("SELECT max(start) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
}

TEST(KernelRows, RangeSummaryCountsOnlyTheKernelsInTheRange) {
  const Trace& trace = loader2();
  KernelIndex index(trace);
  // The whole trace: the same groups as summarizeKernels.
  std::vector<KernelGroup> all = summarizeKernelRange(trace, index, {}, KernelGrouping::DemangledName);
  std::vector<KernelGroup> expected = summarizeKernels(trace, kernelInstances(trace), KernelGrouping::DemangledName);
  ASSERT_EQ(all.size(), expected.size());
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].longName, expected[i].longName);
    EXPECT_EQ(all[i].count, expected[i].count);
    EXPECT_EQ(all[i].first, expected[i].first);
  }
  TimeInterval range = middleThird();
  std::vector<KernelGroup> inRange = summarizeKernelRange(trace, index, range, KernelGrouping::DemangledName);
  EXPECT_EQ(static_cast<int64_t>(inRange.size()),
            sqlInt("SELECT count(DISTINCT k.demangledName)" + kJoin + overlapping(range)));
  for (const KernelGroup& group : inRange) {
    std::string where = overlapping(range) + " AND d.value = '" + trace.string(group.longName) + "'";
    EXPECT_EQ(static_cast<int64_t>(group.count), sqlInt("SELECT count(*)" + kJoin + where));
    EXPECT_EQ(group.total, sqlInt("SELECT sum(k.end - k.start)" + kJoin + where));
    EXPECT_EQ(trace.start(group.first), sqlInt("SELECT min(k.start)" + kJoin + where));
  }
}

}  // namespace
}  // namespace gpuscope
