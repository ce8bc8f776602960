// The backtraces of OS-runtime calls (OSRT_CALLCHAINS): read as nsys wrote them, and shown in a call's
// details, checked against independent SQL on the DataLoader export.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/db/sqlite_database.h"
#include "core/details/event_details.h"
#include "core/model/trace_loader.h"
#include "core/samples/callchains.h"
#include "core/schema/table_names.h"
#include "tests/core/samples/samples_fixtures.h"

namespace gpuscope {
namespace {

std::vector<std::string> osrtChainBySql(const Database& db, int64_t id) {
  std::vector<std::string> frames;
  auto row = db.prepare(
      "SELECT s.value, m.value, c.unresolved FROM OSRT_CALLCHAINS c JOIN StringIds s ON s.id = c.symbol "
      "JOIN StringIds m ON m.id = c.module WHERE c.id = ?1 ORDER BY c.stackDepth");
  row.bind(1, id);
  while (row.step())
    frames.push_back(std::string(row.text(0)) + "|" + std::string(row.text(1)) + "|" + std::to_string(row.int64(2)));
  return frames;
}

// Every callchain of the file reads back frame for frame, leaf first, as SQL gives it.
TEST(OsrtBacktraces, EveryChainOfLoader2EqualsTheSql) {
  Database db = Database::openReadOnly(testing::samplingFixture("loader2_samp"));
  auto ids = db.prepare("SELECT DISTINCT id FROM OSRT_CALLCHAINS ORDER BY id");
  size_t chains = 0, frames = 0, unresolved = 0;
  while (ids.step()) {
    int64_t id = ids.int64(0);
    std::vector<std::string> ours;
    for (const CallchainFrame& frame : readCallchain(db, table::kOsrtCallchains, id)) {
      bool isUnresolved = frame.flags & SampleFrame::kUnresolved;
      unresolved += isUnresolved;
      ours.push_back(frame.symbol + "|" + frame.module + "|" + (isUnresolved ? "1" : "0"));
    }
    ASSERT_EQ(ours, osrtChainBySql(db, id)) << "callchain " << id;
    ++chains;
    frames += ours.size();
  }
  EXPECT_EQ(chains, 1308u);   // the fixture's README
  EXPECT_EQ(frames, 30583u);  // every OSRT_CALLCHAINS row
  EXPECT_GT(unresolved, 0u);  // nsys left raw addresses, which must stay marked
}

TEST(OsrtBacktraces, NoChainForIdZeroAnUnknownIdOrAMissingTable) {
  Database db = Database::openReadOnly(testing::samplingFixture("loader2_samp"));
  EXPECT_TRUE(readCallchain(db, table::kOsrtCallchains, 0).empty());  // nsys's "no backtrace"
  EXPECT_TRUE(readCallchain(db, table::kOsrtCallchains, 1 << 30).empty());
  EXPECT_TRUE(readCallchain(db, "CUDA_CALLCHAINS", 1).empty());  // a table this export lacks
}

// The OS-runtime event of TRACE read from OSRT_API's ROWID.
std::optional<EventRef> osrtEventOfRow(const Trace& trace, int64_t rowid) {
  for (uint32_t t = 0; t < trace.tracks().size(); ++t) {
    const Track& track = trace.track(t);
    if (track.kind != TrackKind::OsRuntime) continue;
    for (uint32_t l = 0; l < track.lanes.size(); ++l) {
      for (uint32_t i = 0; i < track.lanes[l].size(); ++i)
        if (track.lanes[l].row[i] == rowid) return EventRef{t, l, i};
    }
  }
  return std::nullopt;
}

// A blocking call's details end with its backtrace: the leaf (the libc function) first, each frame named
// with its module's file, nsys's unresolved frames said so.
TEST(OsrtBacktraces, TheDetailsOfACallShowItsBacktrace) {
  auto trace = loadTrace(testing::samplingFixture("loader2_samp"));
  const Database& db = trace->database();
  auto pick = db.prepare(
      "SELECT o.rowid, o.callchainId FROM OSRT_API o WHERE o.callchainId > 0 AND EXISTS (SELECT 1 FROM "
      "OSRT_CALLCHAINS c WHERE c.id = o.callchainId AND c.unresolved = 1) ORDER BY o.end - o.start DESC LIMIT 1");
  ASSERT_TRUE(pick.step());
  auto event = osrtEventOfRow(*trace, pick.int64(0));
  ASSERT_TRUE(event);
  auto details = describeEvent(*trace, *event);
  auto expected = osrtChainBySql(db, pick.int64(1));
  ASSERT_FALSE(expected.empty());
  const DetailSection* backtrace = nullptr;
  for (const DetailSection& section : details.sections)
    if (section.title == "Backtrace") backtrace = &section;
  ASSERT_NE(backtrace, nullptr);
  ASSERT_EQ(backtrace->fields.size(), expected.size());
  for (size_t depth = 0; depth < expected.size(); ++depth) {
    const DetailField& field = backtrace->fields[depth];
    EXPECT_EQ(field.label, "#" + std::to_string(depth));
    std::string symbol = expected[depth].substr(0, expected[depth].find('|'));
    EXPECT_EQ(field.value.rfind(symbol, 0), 0u) << field.value;
    bool unresolved = expected[depth].back() == '1';
    EXPECT_EQ(field.value.find("[unresolved]") != std::string::npos, unresolved) << field.value;
  }

  auto none = db.prepare("SELECT rowid FROM OSRT_API WHERE callchainId = 0 LIMIT 1");
  ASSERT_TRUE(none.step());
  auto plain = describeEvent(*trace, *osrtEventOfRow(*trace, none.int64(0)));
  for (const DetailSection& section : plain.sections) EXPECT_NE(section.title, "Backtrace");
  EXPECT_EQ(plain.kind, "OS runtime call");
}

}  // namespace
}  // namespace gpuscope
