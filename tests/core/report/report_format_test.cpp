// ReportTable output: CSV quoting and decimals as nsys prints them, the terminal table, JSON.
#include "core/report/report_format.h"

#include <gtest/gtest.h>

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
