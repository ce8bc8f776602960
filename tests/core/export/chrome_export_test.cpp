// The Chrome JSON export read back: valid JSON (plain and gzip) in Kineto's shape, every kernel there
// with its exact start, flows paired, metadata as HTA and Perfetto read it.
#include <gtest/gtest.h>

#include <algorithm>
#include <istream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>
#include <vector>

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/export/export_output.h"
#include "core/export/export_trace.h"
#include "core/import/kineto/gzip_stream.h"
#include "core/import/kineto/kineto_event.h"
#include "core/model/trace_loader.h"
#include "core/open/open_trace.h"
#include "tests/core/export/export_test_util.h"

namespace gpuscope {
namespace {

struct ExportedChrome {
  std::unique_ptr<Trace> trace;
  ExportSummary summary;
  std::string text;  // uncompressed
  nlohmann::json json;
};

ExportedChrome exportChrome(const std::string& input, const std::string& outName = "out.json") {
  test::ExportTempPath out(outName);
  ExportedChrome e;
  e.trace = openTrace(input).load();
  e.summary = exportTrace(*e.trace, ExportFormat::Chrome, out.path);
  GzipFileBuffer buffer(out.path);  // reads plain files unchanged
  std::istream in(&buffer);
  e.text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  e.json = nlohmann::json::parse(e.text);  // strict: throws on invalid UTF-8 or syntax
  return e;
}

std::map<std::string, size_t> countByCategory(const nlohmann::json& json, const std::string& ph) {
  std::map<std::string, size_t> counts;
  for (const auto& event : json["traceEvents"])
    if (event["ph"] == ph) ++counts[event.value("cat", "")];
  return counts;
}

// The "ts" of every kernel event, as nanoseconds read exactly from the text (one event per line).
std::multiset<TimeNs> kernelStartsInText(const std::string& text) {
  std::multiset<TimeNs> starts;
  size_t line = 0;
  while ((line = text.find("\"cat\": \"kernel\"", line)) != std::string::npos) {
    size_t ts = text.find("\"ts\": ", line) + 6;
    size_t end = text.find_first_of(",}", ts);
    starts.insert(*kineto::microsecondsTextToNs(std::string_view(text).substr(ts, end - ts)));
    line = end;
  }
  return starts;
}

std::multiset<TimeNs> kernelStartsInTrace(const Trace& trace) {
  std::multiset<TimeNs> starts;
  for (const auto& track : trace.tracks())
    if (track.kind == TrackKind::GpuKernels)
      for (const auto& lane : track.lanes) starts.insert(lane.start.begin(), lane.start.end());
  return starts;
}

// Every "f" has an "s" with its id, every "s" at least one "f".
void expectFlowsPaired(const nlohmann::json& json) {
  std::map<uint64_t, std::pair<int, int>> flows;
  for (const auto& event : json["traceEvents"]) {
    if (event["ph"] == "s") ++flows[event["id"].get<uint64_t>()].first;
    if (event["ph"] == "f") {
      ++flows[event["id"].get<uint64_t>()].second;
      EXPECT_EQ(event["bp"], "e");
    }
  }
  for (const auto& [id, ends] : flows) {
    EXPECT_EQ(ends.first, 1) << "flow " << id;
    EXPECT_GE(ends.second, 1) << "flow " << id;
  }
}

TEST(ChromeExport, NsysFileInKinetoShape) {
  auto e = exportChrome(test::fixturePath("nsys/loader2.sqlite"));
  EXPECT_EQ(e.json["schemaVersion"], 1);
  EXPECT_EQ(e.json["baseTimeNanoseconds"], 1795318595866316752);
  EXPECT_EQ(e.json["distributedInfo"]["rank"], 0);
  const auto& device = e.json["deviceProperties"].at(0);
  EXPECT_EQ(device["name"], "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(device["computeMajor"], 9);
  EXPECT_EQ(device["computeMinor"], 0);
  EXPECT_EQ(device["numSms"], 132);
  auto x = countByCategory(e.json, "X");
  EXPECT_EQ(x["kernel"], 984u);
  EXPECT_EQ(x["kernel"], e.trace->counts().kernels);
  EXPECT_EQ(x["gpu_memcpy"], e.trace->counts().memcpys);
  EXPECT_EQ(x["gpu_memset"], e.trace->counts().memsets);
  EXPECT_EQ(x["cuda_runtime"] + x["cuda_driver"], e.trace->counts().cudaApi);
  EXPECT_EQ(x["user_annotation"], e.trace->counts().nvtx);
  EXPECT_EQ(x["osrt"], e.trace->counts().osrt);
  EXPECT_EQ(countByCategory(e.json, "f")["ac2g"], e.summary.flows);
  expectFlowsPaired(e.json);
  EXPECT_EQ(kernelStartsInText(e.text), kernelStartsInTrace(*e.trace));
}

TEST(ChromeExport, GpuEventsCarryKinetoArgs) {
  auto e = exportChrome(test::fixturePath("nsys/loader2.sqlite"));
  std::set<std::string> streamNames;
  for (const auto& event : e.json["traceEvents"]) {
    if (event["ph"] == "M" && event["name"] == "thread_name") streamNames.insert(event["args"]["name"]);
    if (event.value("cat", "") != "kernel") continue;
    const auto& args = event["args"];
    EXPECT_EQ(args["device"], event["pid"]);
    EXPECT_EQ(args["stream"], event["tid"]);
    EXPECT_GT(args["correlation"].get<int64_t>(), 0);
    EXPECT_EQ(args["External id"], args["correlation"]);
  }
  EXPECT_TRUE(streamNames.count("stream 7"));
}

int64_t sqlSum(const Trace& trace, const std::string& query) {
  auto statement = trace.database().prepare(query);
  EXPECT_TRUE(statement.step());
  return statement.int64(0);
}

TEST(ChromeExport, KernelAndCopyArgsEqualTheTables) {
  auto e = exportChrome(test::fixturePath("nsys/loader2.sqlite"));
  int64_t registers = 0, sharedMemory = 0, gridBlocks = 0, copyBytes = 0, memsetBytes = 0;
  for (const auto& event : e.json["traceEvents"]) {
    std::string category = event.value("cat", "");
    if (category == "kernel") {
      const auto& args = event["args"];
      registers += args["registers per thread"].get<int64_t>();
      sharedMemory += args["shared memory"].get<int64_t>();
      gridBlocks += args["grid"][0].get<int64_t>() * args["grid"][1].get<int64_t>() * args["grid"][2].get<int64_t>() *
                    args["block"][0].get<int64_t>();
    }
    if (category == "gpu_memcpy") copyBytes += event["args"]["bytes"].get<int64_t>();
    if (category == "gpu_memset") memsetBytes += event["args"]["bytes"].get<int64_t>();
  }
  const auto& trace = *e.trace;
  EXPECT_EQ(registers, sqlSum(trace, "SELECT SUM(registersPerThread) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
  EXPECT_EQ(sharedMemory,
            sqlSum(trace, "SELECT SUM(staticSharedMemory + dynamicSharedMemory) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
  EXPECT_EQ(gridBlocks, sqlSum(trace, "SELECT SUM(gridX * gridY * gridZ * blockX) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
  EXPECT_EQ(copyBytes, sqlSum(trace, "SELECT SUM(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY"));
  EXPECT_EQ(memsetBytes, sqlSum(trace, "SELECT SUM(bytes) FROM CUPTI_ACTIVITY_KIND_MEMSET"));
  EXPECT_GT(copyBytes, 0);
}

// (name, stream, start ns, end ns) of each gpu_user_annotation event of JSON.
std::vector<std::tuple<std::string, int64_t, double, double>> gpuAnnotationsOf(const nlohmann::json& json) {
  std::vector<std::tuple<std::string, int64_t, double, double>> result;
  for (const auto& event : json["traceEvents"])
    if (event.value("cat", "") == "gpu_user_annotation") {
      double start = event["ts"].get<double>(), end = start + event["dur"].get<double>();
      result.emplace_back(event["name"], event["tid"], start, end);
    }
  std::sort(result.begin(), result.end());
  return result;
}

// The NVTX projection gpuscope computes from the imported trace matches the gpu_user_annotation events
// the PyTorch profiler wrote into the same file, to Kineto's own rounding (a nanosecond or two).
void expectGpuAnnotationsAsKinetoWroteThem(const nlohmann::json& exported) {
  GzipFileBuffer buffer(test::fixturePath("kineto/loader2_kineto.json.gz"));
  std::istream in(&buffer);
  auto original = gpuAnnotationsOf(nlohmann::json::parse(in));
  auto ours = gpuAnnotationsOf(exported);
  ASSERT_EQ(ours.size(), 24u);
  ASSERT_EQ(ours.size(), original.size());
  for (size_t i = 0; i < ours.size(); ++i) {
    EXPECT_EQ(std::get<0>(ours[i]), std::get<0>(original[i]));
    EXPECT_EQ(std::get<1>(ours[i]), std::get<1>(original[i]));
    EXPECT_NEAR(std::get<2>(ours[i]), std::get<2>(original[i]), 0.0025);  // microseconds
    EXPECT_NEAR(std::get<3>(ours[i]), std::get<3>(original[i]), 0.0025);
  }
}

TEST(ChromeExport, GzipOutputAndPyTorchCategories) {
  auto e = exportChrome(test::fixturePath("kineto/loader2_kineto.json.gz"), "out.json.gz");
  auto x = countByCategory(e.json, "X");
  // The PyTorch trace's own counts (tests/fixtures/kineto/loader2_kineto.json.gz).
  EXPECT_EQ(x["kernel"], 984u);
  EXPECT_EQ(x["cpu_op"], 3454u);
  EXPECT_EQ(x["cuda_runtime"], 2453u);
  EXPECT_EQ(x["cuda_driver"], 24u);
  EXPECT_EQ(x["user_annotation"], 74u);
  EXPECT_EQ(x["gpu_memcpy"], 55u);
  EXPECT_EQ(x["gpu_memset"], 52u);
  EXPECT_EQ(e.json["baseTimeNanoseconds"], 1790857026000000000);
  expectGpuAnnotationsAsKinetoWroteThem(e.json);
  EXPECT_EQ(kernelStartsInText(e.text), kernelStartsInTrace(*e.trace));
  expectFlowsPaired(e.json);
}

TEST(ChromeExport, AwkwardTraceRankOverlapsAndBadUtf8) {
  test::ExportTempPath input("awkward.sqlite");
  test::writeAwkwardTrace(input.path);
  auto e = exportChrome(input.path);
  EXPECT_EQ(e.json["distributedInfo"]["rank"], 3);
  EXPECT_EQ(e.summary.overlapRows, 1u);
  std::set<std::string> names;
  std::map<std::string, uint64_t> tidOf;
  for (const auto& event : e.json["traceEvents"]) {
    if (event["ph"] == "X" && event["cat"] != "gpu_user_annotation") {
      names.insert(event["name"]);
      tidOf[event["name"]] = event["tid"];
    }
  }
  EXPECT_TRUE(names.count("bad\xEF\xBF\xBD\xEF\xBF\xBDname"));
  EXPECT_EQ(tidOf["first"], 100u);
  EXPECT_EQ(tidOf["inner"], 100u);
  EXPECT_NE(tidOf["second"], 100u);  // overlaps "first" without nesting: another row
  // "first" and "inner" launched the three pieces of work on stream 7 (1000 to 1500 ns); "second" none.
  using Annotation = std::tuple<std::string, int64_t, double, double>;
  EXPECT_EQ(gpuAnnotationsOf(e.json), (std::vector<Annotation>{{"first", 7, 1.0, 1.5}, {"inner", 7, 1.0, 1.5}}));
  expectFlowsPaired(e.json);
  EXPECT_EQ(countByCategory(e.json, "s")["ac2g"], 4u);  // two processes' correlation id 7 stay apart
}

TEST(ExportOutput, UnwritableFolderIsOneSentenceAndFailedExportLeavesNothing) {
  auto trace = loadTrace(test::fixturePath("nsys/transpose.sqlite"));
  try {
    exportTrace(*trace, ExportFormat::Chrome, "/nonexistent-folder/out.json");
    FAIL() << "expected TraceError";
  } catch (const TraceError& error) {
    EXPECT_EQ(std::string(error.what()),
              "Cannot write /nonexistent-folder/out.json: check that its folder exists and is writable.");
  }
  // A folder where the output should go: the rename fails, the temporary file is removed.
  test::ExportTempPath folder("folder.json");
  std::filesystem::create_directory(folder.path);
  EXPECT_THROW(exportTrace(*trace, ExportFormat::Chrome, folder.path), TraceError);
  auto parent = std::filesystem::path(folder.path).parent_path();
  for (const auto& entry : std::filesystem::directory_iterator(parent))
    EXPECT_EQ(entry.path().string().find(folder.path + ".partial"), std::string::npos) << entry.path();
  std::filesystem::remove(folder.path);
}

TEST(ExportOutput, ReplacesAnExistingFileOnlyWhenComplete) {
  auto trace = loadTrace(test::fixturePath("nsys/transpose.sqlite"));
  test::ExportTempPath out("existing.pftrace");
  { std::ofstream(out.path) << "old"; }
  {
    ExportOutput output(out.path);
    output.write("half");
    // Destroyed without commit(), as when an exporter throws half-way.
  }
  EXPECT_EQ(test::readFile(out.path), "old");
  exportTrace(*trace, ExportFormat::Perfetto, out.path);
  EXPECT_GT(test::readFile(out.path).size(), 1000u);
}

}  // namespace
}  // namespace gpuscope
