// The PyTorch profiler reader against the real fixture: what it loads is checked against the trace's own
// events, read here independently (a DOM parse of the whole JSON), not against figures written down.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/import/kineto/kineto_event.h"
#include "core/open/open_trace.h"
#include "core/stats/stats_reports.h"

namespace gpuscope {
namespace {

const std::string kFixture = std::string(GPUSCOPE_FIXTURES) + "/kineto/loader2_kineto.json.gz";

nlohmann::json readGzipJson(const std::string& path) {
  gzFile file = gzopen(path.c_str(), "rb");
  std::string text;
  char buffer[1 << 16];
  for (int n; (n = gzread(file, buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<size_t>(n));
  gzclose(file);
  return nlohmann::json::parse(text);
}

struct KernelTotals {
  int64_t instances = 0;
  int64_t totalNs = 0;
};

// Per kernel name, from the trace's own "kernel" events.
std::map<std::string, KernelTotals> expectedKernels(const nlohmann::json& doc) {
  std::map<std::string, KernelTotals> totals;
  for (const auto& event : doc["traceEvents"]) {
    if (event.value("cat", "") != "kernel" || event.value("ph", "") != "X") continue;
    auto& entry = totals[event["name"].get<std::string>()];
    entry.instances += 1;
    entry.totalNs += std::llround(event["dur"].get<double>() * 1000.0);
  }
  return totals;
}

size_t countCategory(const nlohmann::json& doc, const std::string& category) {
  size_t count = 0;
  for (const auto& event : doc["traceEvents"]) count += event.value("cat", "") == category ? 1 : 0;
  return count;
}

std::string tempFile(const std::string& name, const std::string& content) {
  std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  auto path = (std::filesystem::path(::testing::TempDir()) / (test + "_" + name)).string();
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

TEST(KinetoImport, StatsKernelSummaryEqualsTheTracesOwnKernelEvents) {
  auto expected = expectedKernels(readGzipJson(kFixture));
  ASSERT_FALSE(expected.empty());
  auto table = cudaGpuKernSum(openTrace(kFixture).connect());
  size_t instancesColumn = 0, totalColumn = 0, nameColumn = 0;
  for (size_t i = 0; i < table.columns.size(); ++i) {
    if (table.columns[i].title == "Instances") instancesColumn = i;
    if (table.columns[i].title == "Total Time (ns)") totalColumn = i;
    if (table.columns[i].title == "Name") nameColumn = i;
  }
  std::map<std::string, KernelTotals> actual;
  for (const auto& row : table.rows) {
    auto& entry = actual[std::get<std::string>(row[nameColumn])];
    entry.instances = std::get<int64_t>(row[instancesColumn]);
    entry.totalNs = std::get<int64_t>(row[totalColumn]);
  }
  ASSERT_EQ(actual.size(), expected.size());
  for (const auto& [name, totals] : expected) {
    ASSERT_TRUE(actual.count(name)) << name;
    EXPECT_EQ(actual[name].instances, totals.instances) << name;
    EXPECT_EQ(actual[name].totalNs, totals.totalNs) << name;
  }
}

TEST(KinetoImport, LoadsEveryKindOfEventAndLinksEachKernelToItsLaunch) {
  auto doc = readGzipJson(kFixture);
  auto trace = openTrace(kFixture).load();
  const auto& counts = trace->counts();
  EXPECT_EQ(counts.kernels, countCategory(doc, "kernel"));
  EXPECT_EQ(counts.memcpys, countCategory(doc, "gpu_memcpy"));
  EXPECT_EQ(counts.memsets, countCategory(doc, "gpu_memset"));
  EXPECT_EQ(counts.cudaApi, countCategory(doc, "cuda_runtime") + countCategory(doc, "cuda_driver"));
  EXPECT_EQ(counts.nvtx, countCategory(doc, "cpu_op") + countCategory(doc, "user_annotation") +
                             countCategory(doc, "python_function") + countCategory(doc, "gpu_user_annotation"));
  size_t linked = 0;
  for (uint32_t t = 0; t < trace->tracks().size(); ++t) {
    const auto& track = trace->track(t);
    if (track.kind != TrackKind::GpuKernels) continue;
    for (uint32_t l = 0; l < track.lanes.size(); ++l)
      for (uint32_t i = 0; i < track.lanes[l].size(); ++i) linked += trace->launchingCall({t, l, i}).has_value();
  }
  EXPECT_EQ(linked, counts.kernels);
  ASSERT_EQ(trace->devices().size(), doc["deviceProperties"].size());
  EXPECT_EQ(trace->devices()[0].name, doc["deviceProperties"][0]["name"].get<std::string>());
  EXPECT_EQ(trace->devices()[0].smCount, doc["deviceProperties"][0]["numSms"].get<int>());
  EXPECT_EQ(trace->path(), kFixture);
}

// Each rank's trace of the two-GPU DDP run (tests/fixtures/ranks) lists both GPUs of the node; only the one the rank
// worked on becomes a device: the other would be an empty "GPU 1" row in rank 0's timeline.
TEST(KinetoImport, OnlyDevicesWithGpuWorkBecomeDevices) {
  const std::string ranks = std::string(GPUSCOPE_FIXTURES) + "/ranks/kineto/";
  for (uint32_t rank : {0u, 1u}) {
    const std::string file = ranks + "rank" + std::to_string(rank) + ".json.gz";
    ASSERT_EQ(readGzipJson(file)["deviceProperties"].size(), 2u) << file;
    auto trace = openTrace(file).load();
    ASSERT_EQ(trace->devices().size(), 1u) << file;
    EXPECT_EQ(trace->devices()[0].id, rank) << file;
    EXPECT_EQ(trace->devices()[0].name, "NVIDIA H200");
  }
}

TEST(KinetoImport, ReadsPlainJsonAsWellAsGzip) {
  auto doc = readGzipJson(kFixture);
  auto plain = tempFile("plain.json", doc.dump());
  EXPECT_EQ(openTrace(plain).format, openTrace(kFixture).format);
  EXPECT_EQ(openTrace(plain).load()->counts().kernels, countCategory(doc, "kernel"));
}

TEST(KinetoImport, TimesAreMicrosecondTextToNanosecondsWithoutRoundingDrift) {
  EXPECT_EQ(kineto::microsecondsTextToNs("4623373867444.659"), 4623373867444659);
  EXPECT_EQ(kineto::microsecondsTextToNs("1.0565"), 1057);
  EXPECT_EQ(kineto::microsecondsTextToNs("1.0564"), 1056);
  EXPECT_EQ(kineto::microsecondsTextToNs("12"), 12000);
  EXPECT_EQ(kineto::microsecondsTextToNs("-2.5"), -2500);
  EXPECT_EQ(kineto::microsecondsTextToNs("1.5e3"), 1500000);
  EXPECT_FALSE(kineto::microsecondsTextToNs("1.2x").has_value());
}

TEST(KinetoImport, StringPidsAndOrphanFlowsAreIgnoredAndGpuWorkWaitsForItsLaunch) {
  // The kernel comes before its launching call; a "Spans" row has string pid/tid; a flow has no partner.
  auto path = tempFile("small.json", R"js({"baseTimeNanoseconds": 1000, "distributedInfo": {"rank": 3},
    "traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "void k<4>(int)", "pid": 0, "tid": 7, "ts": 10.5, "dur": 2.25,
     "args": {"device": 0, "stream": 7, "correlation": 42, "grid": [2, 3, 4], "block": [128, 1, 1]}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 55, "tid": 56, "ts": 9, "dur": 1,
     "args": {"correlation": 42}},
    {"ph": "X", "cat": "Trace", "name": "PyTorch Profiler (0)", "pid": "Spans", "tid": "PyTorch Profiler",
     "ts": 1, "dur": 100},
    {"ph": "s", "cat": "ac2g", "id": 99, "pid": 55, "tid": 56, "ts": 9, "name": "ac2g"}
  ]})js");
  auto trace = openTrace(path).load();
  EXPECT_EQ(trace->counts().kernels, 1u);
  EXPECT_EQ(trace->counts().cudaApi, 1u);
  EXPECT_EQ(trace->startTime(), 9000);
  for (uint32_t t = 0; t < trace->tracks().size(); ++t) {
    if (trace->track(t).kind != TrackKind::GpuKernels) continue;
    EXPECT_EQ(trace->track(t).pid, 55u);
    EXPECT_EQ(trace->start({t, 0, 0}), 10500);
    EXPECT_EQ(trace->end({t, 0, 0}), 12750);
    EXPECT_TRUE(trace->launchingCall({t, 0, 0}).has_value());
  }
  auto db = openTrace(path).connect();
  auto rank = db.prepare("SELECT value FROM GPUSCOPE_META WHERE name = 'distributed_rank'");
  ASSERT_TRUE(rank.step());
  EXPECT_EQ(rank.text(0), "3");
}

// A GPU op without args.correlation is linked through the ac2g flow that ends on it, when the flow's start is
// there too; a flow end whose start is missing links nothing. gpu_user_annotation ranges land on one row per
// GPU stream in the launching process, named for the stream.
TEST(KinetoImport, PairedFlowsLinkGpuOpsAndGpuAnnotationsGetAStreamRow) {
  auto path = tempFile("flows.json", R"js({"traceEvents": [
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 55, "tid": 56, "ts": 9, "dur": 1,
     "args": {"correlation": 42}},
    {"ph": "X", "cat": "kernel", "name": "linked", "pid": 0, "tid": 7, "ts": 10, "dur": 2},
    {"ph": "X", "cat": "kernel", "name": "orphan", "pid": 0, "tid": 7, "ts": 20, "dur": 2},
    {"ph": "s", "cat": "ac2g", "id": 42, "pid": 55, "tid": 56, "ts": 9, "name": "ac2g"},
    {"ph": "f", "cat": "ac2g", "id": 42, "pid": 0, "tid": 7, "ts": 10, "name": "ac2g", "bp": "e"},
    {"ph": "f", "cat": "ac2g", "id": 77, "pid": 0, "tid": 7, "ts": 20, "name": "ac2g", "bp": "e"},
    {"ph": "X", "cat": "gpu_user_annotation", "name": "forward", "pid": 0, "tid": 7, "ts": 9.5, "dur": 14}
  ]})js");
  auto trace = openTrace(path).load();
  EXPECT_EQ(trace->counts().kernels, 2u);
  std::map<TimeNs, bool> linkedByStart;
  std::vector<std::string> nvtxRows;
  for (uint32_t t = 0; t < trace->tracks().size(); ++t) {
    const auto& track = trace->track(t);
    if (track.kind == TrackKind::GpuKernels)
      for (uint32_t i = 0; i < track.lanes[0].size(); ++i)
        linkedByStart[trace->start({t, 0, i})] = trace->launchingCall({t, 0, i}).has_value();
    if (track.kind == TrackKind::Nvtx) {
      EXPECT_EQ(track.pid, 55u);
      EXPECT_EQ(trace->start({t, 0, 0}), 9500);
      EXPECT_EQ(trace->end({t, 0, 0}), 23500);
      for (const auto& process : trace->processes())
        for (const auto& thread : process.threads)
          if (thread.globalTid == track.globalTid) nvtxRows.push_back(thread.name);
    }
  }
  EXPECT_EQ(linkedByStart, (std::map<TimeNs, bool>{{10000, true}, {20000, false}}));
  EXPECT_EQ(nvtxRows, std::vector<std::string>{"GPU 0 stream 7 annotations"});
}

TEST(KinetoImport, BadFilesGetOneSentence) {
  for (const auto& [name, content] :
       std::map<std::string, std::string>{{"truncated.json", R"({"traceEvents": [{"ph": "X", "cat": "kernel")"},
                                          {"array.json", "[1, 2]"},
                                          {"no_events.json", R"({"schemaVersion": 1})"},
                                          {"truncated.json.gz", std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00", 8)}}) {
    auto path = tempFile(name, content);
    try {
      openTrace(path).load();
      ADD_FAILURE() << name << " loaded";
    } catch (const TraceError& error) {
      std::string message = error.what();
      EXPECT_NE(message.find(path), std::string::npos) << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
  }
}

// A PyTorch trace cut short (a download or a copy that did not finish) is called truncated, not invalid JSON.
TEST(KinetoImport, ATruncatedGzipTraceIsCalledTruncated) {
  std::ifstream fixture(kFixture, std::ios::binary);
  std::string whole((std::istreambuf_iterator<char>(fixture)), std::istreambuf_iterator<char>());
  ASSERT_GT(whole.size(), 100'000u);
  for (size_t keep : {whole.size() / 2, whole.size() - 4}) {  // mid-stream, and in the trailer
    auto path = tempFile("cut_" + std::to_string(keep) + ".json.gz", whole.substr(0, keep));
    try {
      openTrace(path).load();
      ADD_FAILURE() << "a trace cut to " << keep << " bytes loaded";
    } catch (const TraceError& error) {
      std::string message = error.what();
      EXPECT_EQ(message.rfind(path + " is truncated: its gzip stream ends after ", 0), 0u) << message;
      EXPECT_EQ(message.find("not valid JSON"), std::string::npos) << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
  }
}

}  // namespace
}  // namespace gpuscope
