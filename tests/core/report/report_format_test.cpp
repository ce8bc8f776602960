// ReportTable output: CSV quoting and decimals as nsys prints them, the terminal table, JSON.
#include "core/report/report_format.h"

#include <gtest/gtest.h>

#include "core/text/elide.h"

namespace gpuscope {
namespace {

ReportTable sample() {
  ReportTable table{"sample", "Sample", {{"Time (%)", 1}, {"Total", 0}, {"Size (MB)", 3}, {"Name", 0}}, {}};
  table.rows.push_back({55.4, int64_t{140856854}, 0.0004, std::string("saxpy(float *, int)")});
  table.rows.push_back({0.0, int64_t{-5}, ReportCell{}, std::string("say \"hi\"")});
  table.rows.push_back({100.0, int64_t{7}, 134.217728, std::string("two\nlines")});
  return table;
}

TEST(ReportCsv, QuotesOnlyFieldsWithCommasQuotesOrLineBreaks) {
  EXPECT_EQ(formatCsv(sample()),
            "Time (%),Total,Size (MB),Name\n"
            "55.4,140856854,0.000,\"saxpy(float *, int)\"\n"
            "0.0,-5,,\"say \"\"hi\"\"\"\n"
            "100.0,7,134.218,\"two\nlines\"\n");
}

TEST(ReportCsv, LeadingSpacesStayUnquotedAsNsysPrintsGridSizes) {
  ReportTable table{"t", "T", {{"GridXYZ", 0}}, {{std::string(" 256  128    1")}}};
  EXPECT_EQ(formatCsv(table), "GridXYZ\n 256  128    1\n");
}

TEST(ReportCsv, AnEmptyReportIsItsHeader) {
  ReportTable table{"t", "T", {{"A", 0}, {"B", 0}}, {}};
  EXPECT_EQ(formatCsv(table), "A,B\n");
}

TEST(CellText, RealsUseTheColumnDecimalsAndNeverPrintMinusZero) {
  EXPECT_EQ(cellText(ReportCell{70428427.0}, {"x", 1}), "70428427.0");
  EXPECT_EQ(cellText(ReportCell{83.88608}, {"x", 3}), "83.886");
  EXPECT_EQ(cellText(ReportCell{-0.0}, {"x", 1}), "0.0");
  EXPECT_EQ(cellText(ReportCell{int64_t{42}}, {"x", 3}), "42");
  EXPECT_EQ(cellText(ReportCell{}, {"x", 1}), "");
}

TEST(ReportText, AlignsNumbersRightWithThousandsAndTextLeft) {
  ReportTable table{"t", "T", {{"Total", 0}, {"Avg", 1}, {"Name", 0}}, {}};
  table.rows.push_back({int64_t{1234567}, 1234.5, std::string("a")});
  table.rows.push_back({int64_t{12}, -1.0, std::string("longer")});
  EXPECT_EQ(formatTextTable(table),
            "     Total      Avg  Name\n"
            " ---------  -------  ------\n"
            " 1,234,567  1,234.5  a\n"
            "        12     -1.0  longer\n");
}

// A PyTorch kernel's demangled name is hundreds of characters: the table fits the width asked for, the
// name keeps its start and end, numbers stay whole, and CSV and JSON keep the name as it is.
TEST(ReportText, LongNamesLoseTheirMiddleToFitTheWidth) {
  const std::string longName = "void at::native::reduce_kernel<(int)512, (int)1, " + std::string(1800, 'x') + ">(T3)";
  ReportTable table{"t", "T", {{"Total Time (ns)", 0}, {"Instances", 0}, {"Name", 0}, {"Kind", 0}}, {}};
  table.rows.push_back({int64_t{895667}, int64_t{24}, longName, std::string("kernel")});
  table.rows.push_back({int64_t{12}, int64_t{1}, std::string("saxpy"), std::string("kernel")});
  for (size_t width : {60u, 100u, 160u}) {
    std::string text = formatTextTable(table, width);
    size_t lines = 0;
    for (size_t at = 0; at < text.size(); ++lines) {
      size_t end = text.find('\n', at);
      EXPECT_LE(displayWidth(text.substr(at, end - at)), width) << text.substr(at, end - at);
      at = end + 1;
    }
    EXPECT_EQ(lines, 4u);
    EXPECT_NE(text.find("void at::na"), std::string::npos) << text;  // the start stays
    EXPECT_NE(text.find("\u2026"), std::string::npos) << text;
    EXPECT_NE(text.find("x>(T3)  kernel"), std::string::npos) << text;
    EXPECT_NE(text.find("895,667"), std::string::npos) << text;
  }
  // No limit: the whole name, as before.
  EXPECT_NE(formatTextTable(table).find(longName), std::string::npos);
  EXPECT_NE(formatTextTable(table, 0).find(longName), std::string::npos);
  EXPECT_NE(formatCsv(table).find(longName), std::string::npos);
  EXPECT_EQ(reportJson(table)["rows"][0]["Name"], longName);
}

TEST(ReportText, ATableThatFitsIsPrintedAsItWas) {
  ReportTable table{"t", "T", {{"Total", 0}, {"Name", 0}}, {}};
  table.rows.push_back({int64_t{1234567}, std::string("transposeNaive(float *, const float *, int, int)")});
  EXPECT_EQ(formatTextTable(table, 160), formatTextTable(table));
  // Text columns narrow together, never below kNarrowestTextColumn, numbers never.
  EXPECT_EQ(formatTextTable(table, 30),
            "     Total  Name\n"
            " ---------  ------------------\n"
            " 1,234,567  transpose\u2026nt, int)\n");
}

// Columns that cannot fit side by side, even with every name at kNarrowestTextColumn, are printed a record at
// a time (psql's expanded display): every line fits, names keep what the width allows, numbers stay whole.
TEST(ReportText, ATableTooWideForTheWidthIsPrintedARecordAtATime) {
  const std::string name = "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>(int)";
  ReportTable table{"t", "T", {{"Time (%)", 1}, {"Total Time (ns)", 0}, {"Instances", 0}, {"Empty", 0}}, {}};
  for (int extra = 0; extra < 6; ++extra) table.columns.push_back({"Stat " + std::to_string(extra), 0});
  table.columns.push_back({"Name", 0});
  table.rows.emplace_back(table.columns.size());
  table.rows[0][0] = 23.4;
  table.rows[0][1] = int64_t{1234567};
  table.rows[0][2] = int64_t{12};
  for (size_t c = 4; c < 10; ++c) table.rows[0][c] = int64_t{123456789};
  table.rows[0][10] = name;
  table.rows.push_back(table.rows[0]);
  table.rows[1][10] = std::string("saxpy");
  // Side by side: 1 + 8 + 2 + 15 + 2 + 9 + 2 + 5 + 6 x (2 + 11) + 2 + 16 = 140 columns at the narrowest.
  EXPECT_EQ(formatTextTable(table, 140).find("-[ row"), std::string::npos);
  std::string text = formatTextTable(table, 60);
  EXPECT_EQ(text.substr(0, text.find("Name")),
            " -[ row 1 of 2 ]--------------------------------------------\n"
            " Time (%)         23.4\n"
            " Total Time (ns)  1,234,567\n"
            " Instances        12\n"
            " Stat 0           123,456,789\n"
            " Stat 1           123,456,789\n"
            " Stat 2           123,456,789\n"
            " Stat 3           123,456,789\n"
            " Stat 4           123,456,789\n"
            " Stat 5           123,456,789\n"
            " ")
      << text;
  EXPECT_NE(text.find(" Name             " + elideMiddle(name, 60 - 18) + "\n -[ row 2 of 2 ]"), std::string::npos)
      << text;
  EXPECT_NE(text.find(" Name             saxpy\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("Empty"), std::string::npos) << text;  // a cell with no value has no line
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find('\n', at);
    EXPECT_LE(displayWidth(text.substr(at, end - at)), 60u) << text.substr(at, end - at);
    at = end + 1;
  }
  // Even narrower than a title and a short name: values keep kNarrowestTextColumn.
  std::string tight = formatTextTable(table, 5);
  EXPECT_NE(tight.find(" Name             " + elideMiddle(name, kNarrowestTextColumn) + "\n"), std::string::npos)
      << tight;
}

TEST(ReportJson, NumbersAreNumbersAsPrintedAndEmptyIsNull) {
  auto json = reportJson(sample());
  EXPECT_EQ(json["name"], "sample");
  EXPECT_EQ(json["columns"].size(), 4u);
  ASSERT_EQ(json["rows"].size(), 3u);
  const auto& first = json["rows"][0];
  EXPECT_TRUE(first["Time (%)"].is_number_float());
  EXPECT_EQ(first["Time (%)"].get<double>(), 55.4);
  EXPECT_EQ(first["Total"].get<int64_t>(), 140856854);
  EXPECT_EQ(first["Size (MB)"].get<double>(), 0.0);
  EXPECT_EQ(json["rows"][2]["Size (MB)"].get<double>(), 134.218);
  EXPECT_TRUE(json["rows"][1]["Size (MB)"].is_null());
  EXPECT_EQ(json["rows"][1]["Name"], "say \"hi\"");
  // Keys keep the column order.
  EXPECT_EQ(first.begin().key(), "Time (%)");
}

}  // namespace
}  // namespace gpuscope
