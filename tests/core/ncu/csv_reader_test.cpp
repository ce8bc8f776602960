#include "core/ncu/csv_reader.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace gpuscope {
namespace {

TEST(CsvReader, QuotedFieldsWithCommasQuotesAndLineBreaks) {
  auto records = parseCsv("\"a,b\",\"say \"\"hi\"\"\",plain\r\n\"two\nlines\",,\"\"\n");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0], (CsvRecord{"a,b", "say \"hi\"", "plain"}));
  EXPECT_EQ(records[1], (CsvRecord{"two\nlines", "", ""}));
}

TEST(CsvReader, LastRecordWithoutLineBreakAndBlankLines) {
  auto records = parseCsv("x,y\n\n1,2");
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0], (CsvRecord{"x", "y"}));
  EXPECT_EQ(records[1], (CsvRecord{""}));
  EXPECT_EQ(records[2], (CsvRecord{"1", "2"}));
  EXPECT_TRUE(parseCsv("").empty());
  EXPECT_EQ(parseCsv("a,\n").front(), (CsvRecord{"a", ""}));
}

TEST(CsvReader, FunctionSignaturesStayOneField) {
  auto records = parseCsv("\"0\",\"transposeNaive(float *, const float *, int, int)\",\"(32, 8, 1)\"\n");
  ASSERT_EQ(records.size(), 1u);
  ASSERT_EQ(records[0].size(), 3u);
  EXPECT_EQ(records[0][1], "transposeNaive(float *, const float *, int, int)");
  EXPECT_EQ(records[0][2], "(32, 8, 1)");
}

TEST(CsvReader, UnterminatedQuoteIsAUserError) { EXPECT_THROW(parseCsv("\"open,1\n2,3"), TraceError); }

TEST(CsvReader, NumbersWithThousandsSeparators) {
  EXPECT_EQ(parseCsvNumber("313,716,480"), 313716480.0);
  EXPECT_DOUBLE_EQ(*parseCsvNumber("1,979,455,917.93"), 1979455917.93);
  EXPECT_EQ(parseCsvNumber("0"), 0.0);
  EXPECT_EQ(parseCsvNumber(" -12.5 "), -12.5);
  EXPECT_EQ(parseCsvNumber("+3"), 3.0);
  EXPECT_EQ(parseCsvNumber("1.5e3"), 1500.0);
  EXPECT_EQ(parseCsvNumber("78.07"), 78.07);
  EXPECT_FALSE(parseCsvNumber("n/a"));
  EXPECT_FALSE(parseCsvNumber(""));
  EXPECT_FALSE(parseCsvNumber("1,23"));    // not a thousands group
  EXPECT_FALSE(parseCsvNumber("1,2345"));  // neither
  EXPECT_FALSE(parseCsvNumber(",123"));
  EXPECT_FALSE(parseCsvNumber("(32, 8, 1)"));
  EXPECT_FALSE(parseCsvNumber("12abc"));
  EXPECT_FALSE(parseCsvNumber("1e"));
}

}  // namespace
}  // namespace gpuscope
