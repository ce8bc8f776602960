// NVTX through the injection interface: the exact NVTX_EVENTS rows of a program using push/pop,
// marks, start/end across threads, a domain with a registered string, colours, categories, wide
// strings and thread names.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "core/model/global_id.h"
#include "core/model/trace_loader.h"
#include "tests/collector/record_test_support.h"

namespace gpuscope::test {
namespace {

struct NvtxEvent {
  int64_t start = 0;
  std::string end;  // "NULL" for marks
  int eventType = 0;
  std::string text;
  uint32_t tid = 0;
  std::string endTid;
  int64_t domain = 0;
  std::string color;
  std::string category;
  std::string textId;
};

std::vector<NvtxEvent> nvtxEvents(const std::string& trace) {
  std::vector<NvtxEvent> events;
  for (const auto& row : query(trace,
                               "SELECT n.start, n.end, n.eventType, coalesce(n.text, s.value), n.globalTid, "
                               "n.endGlobalTid, n.domainId, n.color, n.category, n.textId FROM NVTX_EVENTS n "
                               "LEFT JOIN StringIds s ON s.id = n.textId ORDER BY n.start")) {
    NvtxEvent event;
    event.start = std::stoll(row[0]);
    event.end = row[1];
    event.eventType = std::stoi(row[2]);
    event.text = row[3];
    event.tid = global_id::tid(std::stoll(row[4]));
    event.endTid = row[5] == "NULL" ? row[5] : std::to_string(global_id::tid(std::stoll(row[5])));
    event.domain = row[6] == "NULL" ? 0 : std::stoll(row[6]);
    event.color = row[7];
    event.category = row[8];
    event.textId = row[9];
    events.push_back(event);
  }
  return events;
}

TEST(RecordNvtx, EveryKindOfEventAsNsysWritesIt) {
  TempDir dir;
  std::string trace = dir.file("nvtx.sqlite");
  std::string log = dir.file("nvtx.log");
  RunResult result = runGpuscope({"record", "-t", "nvtx", "-o", trace, "--", NVTX_WORKLOAD, log});
  ASSERT_EQ(result.status, 0) << result.errorOutput;
  EXPECT_NE(result.errorOutput.find("NVTX ranges left open at process exit: 1"), std::string::npos)
      << result.errorOutput;
  auto calls = readLog(log);
  int64_t origin = std::stoll(meta(trace, "clock_origin_ns").value());
  auto events = nvtxEvents(trace);

  std::multimap<std::string, NvtxEvent> byText;
  for (const NvtxEvent& event : events) byText.emplace(event.text, event);
  auto one = [&](const std::string& text) {
    EXPECT_EQ(byText.count(text), 1u) << text;
    return byText.find(text)->second;
  };

  const LoggedCall& outerCall = findCall(calls, "outer");
  const LoggedCall& innerCall = findCall(calls, "inner");
  uint32_t mainTid = static_cast<uint32_t>(outerCall.tid);
  NvtxEvent outer = one("outer");
  NvtxEvent inner = one("inner");
  EXPECT_EQ(outer.eventType, 59);
  EXPECT_EQ(inner.eventType, 59);
  EXPECT_EQ(outer.tid, mainTid);
  EXPECT_EQ(outer.color, std::to_string(0xFF0000FFu));
  EXPECT_EQ(outer.category, "3");
  EXPECT_EQ(inner.color, "NULL");
  EXPECT_EQ(outer.domain, 0);
  // Nesting, and both inside what the program measured around them.
  EXPECT_LE(outer.start, inner.start);
  EXPECT_LE(std::stoll(inner.end), std::stoll(outer.end));
  EXPECT_GE(outer.start, outerCall.start - origin);
  EXPECT_LE(std::stoll(outer.end), outerCall.end - origin);
  EXPECT_GE(inner.start, innerCall.start - origin);
  EXPECT_LE(std::stoll(inner.end), innerCall.end - origin);
  EXPECT_GE(std::stoll(inner.end) - inner.start, 5'000'000);

  NvtxEvent checkpoint = one("checkpoint");
  EXPECT_EQ(checkpoint.eventType, 34);
  EXPECT_EQ(checkpoint.end, "NULL");
  EXPECT_GE(checkpoint.start, std::stoll(inner.end));
  EXPECT_LE(checkpoint.start, std::stoll(outer.end));

  // The domain: created once, its registered string used three times through StringIds.
  NvtxEvent domain = one("workload-domain");
  EXPECT_EQ(domain.eventType, 75);
  EXPECT_GT(domain.domain, 0);
  EXPECT_EQ(byText.count("registered-step"), 3u);
  for (auto [it, end] = byText.equal_range("registered-step"); it != end; ++it) {
    EXPECT_EQ(it->second.eventType, 59);
    EXPECT_EQ(it->second.domain, domain.domain);
    EXPECT_NE(it->second.textId, "NULL");
  }
  NvtxEvent domainMark = one("domain-mark");
  EXPECT_EQ(domainMark.eventType, 34);
  EXPECT_EQ(domainMark.domain, domain.domain);

  EXPECT_EQ(one("wide \xc3\xbc"
                "n\xc3\xaf"
                "code")
                .eventType,
            59);

  // Start/end across threads: begins on the main thread, ends on the worker.
  const LoggedCall& handoffCall = findCall(calls, "handoff");
  NvtxEvent handoff = one("handoff");
  EXPECT_EQ(handoff.eventType, 60);
  EXPECT_EQ(handoff.tid, mainTid);
  EXPECT_EQ(handoff.endTid, std::to_string(handoffCall.tid));
  EXPECT_GE(std::stoll(handoff.end) - handoff.start, 3'000'000);
  EXPECT_GE(handoff.start, handoffCall.start - origin);
  EXPECT_LE(std::stoll(handoff.end), handoffCall.end - origin);
  EXPECT_EQ(one("worker-range").tid, static_cast<uint32_t>(handoffCall.tid));

  EXPECT_EQ(one("payload-i64").eventType, 34);
  EXPECT_EQ(one("payload-double").eventType, 34);

  // Left open: closed at the process's last event.
  NvtxEvent open = one("never-popped");
  EXPECT_EQ(open.eventType, 59);
  EXPECT_GE(std::stoll(open.end), open.start);

  // Thread names: NVTX's name for the main thread wins over its OS name.
  auto names = query(trace, "SELECT t.globalTid, s.value FROM ThreadNames t JOIN StringIds s ON s.id = t.nameId");
  std::map<uint32_t, std::string> threadNames;
  for (const auto& row : names) threadNames[global_id::tid(std::stoll(row[0]))] = row[1];
  EXPECT_EQ(threadNames[mainTid], "nvtx-main");
  EXPECT_EQ(threadNames[static_cast<uint32_t>(handoffCall.tid)], "nvtx-worker");

  auto loaded = loadTrace(trace);
  EXPECT_EQ(loaded->counts().nvtx, events.size() - 1);  // the domain-create row is no event
}

}  // namespace
}  // namespace gpuscope::test
