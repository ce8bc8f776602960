// Tables fit the terminal: `gpuscope roofline --by name` on a PyTorch trace (names of 400 and more
// characters) and `gpuscope stats` fit --width, $COLUMNS or 160 columns, the names cut in the middle (numbers
// are never cut); CSV and JSON keep the names whole.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "core/ncu/csv_reader.h"
#include "core/text/elide.h"
#include "process_runner.h"

namespace {

using gpuscope::test::EnvChanges;
using gpuscope::test::fixturePath;
using gpuscope::test::ProcessRun;
using gpuscope::test::runGpuscope;

// The PyTorch profiler's trace of loader2 with the ncu metrics of its kernels, in a copy.
std::string pytorchTraceWithMetrics() {
  static const std::string path = [] {
    std::string out = gpuscope::test::testTempPath("table_width_cli", "kineto_metrics.sqlite");
    ProcessRun run = runGpuscope("import-ncu '" + fixturePath("kineto/loader2_kineto.json.gz") + "' '" +
                                 fixturePath("ncu/loader2_ncu_metrics.csv") + "' -o '" + out + "'");
    EXPECT_EQ(run.exitCode, 0) << run.err;
    return out;
  }();
  return path;
}

// The widest line of TEXT, in terminal columns.
size_t widestLine(const std::string& text) {
  size_t widest = 0;
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    widest = std::max(widest, gpuscope::displayWidth(std::string_view(text).substr(at, end - at)));
    at = end + 1;
  }
  return widest;
}

// The longest kernel name of the roofline's points, from its CSV.
std::string longestName(const std::string& csv) {
  auto records = gpuscope::parseCsv(csv);
  std::string longest;
  for (size_t r = 1; r < records.size(); ++r)
    if (records[r][0].size() > longest.size()) longest = records[r][0];
  return longest;
}

const EnvChanges kNoColumns{{"COLUMNS", std::nullopt}};

TEST(TableWidthCli, RooflineByNameOnAPyTorchTraceFitsTheWidth) {
  std::string trace = pytorchTraceWithMetrics();
  ProcessRun csv = runGpuscope("roofline '" + trace + "' --by name --format csv", kNoColumns);
  ASSERT_EQ(csv.exitCode, 0) << csv.err;
  std::string longest = longestName(csv.out);
  ASSERT_GT(longest.size(), 300u) << csv.out;  // the CSV keeps the names whole
  ProcessRun json = runGpuscope("roofline '" + trace + "' --by name --format json", kNoColumns);
  ASSERT_EQ(json.exitCode, 0) << json.err;
  EXPECT_NE(json.out.find(nlohmann::json(longest).dump()), std::string::npos);

  // Piped, with no $COLUMNS: names cut to fit 160 columns. The roofline's numbers alone take more than that
  // (they are never cut), so its names go down to kNarrowestTextColumn: a line of about 250 columns, not 800.
  ProcessRun piped = runGpuscope("roofline '" + trace + "' --by name", kNoColumns);
  ASSERT_EQ(piped.exitCode, 0) << piped.err;
  EXPECT_LT(widestLine(piped.out), 300u) << piped.out;
  EXPECT_NE(piped.out.find("\u2026"), std::string::npos);
  EXPECT_EQ(piped.out.find(longest), std::string::npos);
  // --width 0 prints the names whole, as before.
  ProcessRun whole = runGpuscope("roofline '" + trace + "' --by name --width 0", kNoColumns);
  EXPECT_NE(whole.out.find(longest), std::string::npos);
  EXPECT_GT(widestLine(whole.out), 800u);
  // A terminal of 100 columns: the roofs and the points a record at a time, and the roofs say why they are
  // empty (a PyTorch trace gives no clock rate or memory bandwidth).
  ProcessRun narrow = runGpuscope("roofline '" + trace + "' --by name", {{"COLUMNS", "100"}});
  ASSERT_EQ(narrow.exitCode, 0) << narrow.err;
  EXPECT_LE(widestLine(narrow.out), 100u) << narrow.out;
  EXPECT_NE(narrow.out.find("Source                 none: the file does not give the GPU's"), std::string::npos)
      << narrow.out;
  EXPECT_NE(narrow.err.find("gpuscope: note: device 0 lacks roofs: the file does not give the GPU's clock rate or "
                            "memory bandwidth (`gpuscope peaks --store FILE` measures the roofs on that GPU).\n"),
            std::string::npos)
      << narrow.err;
}

TEST(TableWidthCli, StatsTablesFitAndCsvKeepsTheNames) {
  std::string trace = fixturePath("nsys/loader2.sqlite");
  ProcessRun table = runGpuscope("stats '" + trace + "' -r cuda_gpu_kern_sum --width 120", {{"COLUMNS", "200"}});
  ASSERT_EQ(table.exitCode, 0) << table.err;
  EXPECT_LE(widestLine(table.out), 120u) << table.out;
  EXPECT_NE(table.out.find("void wgrad_al"), std::string::npos) << table.out;  // names keep their start
  // $COLUMNS without --width; piped with neither, 160.
  ProcessRun columns = runGpuscope("stats '" + trace + "' -r cuda_gpu_kern_sum", {{"COLUMNS", "130"}});
  EXPECT_LE(widestLine(columns.out), 130u) << columns.out;
  EXPECT_GT(widestLine(columns.out), 120u) << columns.out;
  ProcessRun piped = runGpuscope("stats '" + trace + "' -r cuda_gpu_kern_sum", kNoColumns);
  EXPECT_LE(widestLine(piped.out), 160u) << piped.out;
  EXPECT_GT(widestLine(piped.out), 150u) << piped.out;
  ProcessRun csv = runGpuscope("stats '" + trace + "' -r cuda_gpu_kern_sum --format csv --width 100", kNoColumns);
  ASSERT_EQ(csv.exitCode, 0) << csv.err;
  EXPECT_EQ(csv.out, gpuscope::test::readWholeFile(fixturePath("nsys/loader2_stats_cuda_gpu_kern_sum.csv")));
  // 100 columns cannot hold the report's eight numbers and a name of 16: a record at a time, every line
  // fitting, each name as whole as 100 columns allow. The report's names may follow the trace (-r NAME FILE).
  ProcessRun narrow = runGpuscope("stats -r cuda_gpu_kern_sum '" + trace + "' --width 100", kNoColumns);
  ASSERT_EQ(narrow.exitCode, 0) << narrow.err;
  EXPECT_LE(widestLine(narrow.out), 100u) << narrow.out;
  EXPECT_NE(narrow.out.find(" -[ row 1 of "), std::string::npos) << narrow.out;
  EXPECT_NE(
      narrow.out.find(" Name             void wgrad_alg0_engine<float, (int)128, (\u2026ng long, int, float, int, int, "
                      "int, int)\n"),
      std::string::npos)
      << narrow.out;
  ProcessRun bad = runGpuscope("stats '" + trace + "' --width -3", kNoColumns);
  EXPECT_EQ(bad.exitCode, 2);
  EXPECT_EQ(bad.err.rfind("gpuscope: ", 0), 0u) << bad.err;
}

}  // namespace
