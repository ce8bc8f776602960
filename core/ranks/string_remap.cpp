#include "core/ranks/string_remap.h"

#include "core/db/sqlite_database.h"
#include "core/schema/trace_schema.h"

namespace gpuscope {

StringRemap::StringRemap(Database& out) : out_(out) {
  out_.exec("CREATE TEMP TABLE IF NOT EXISTS merge_strings (old INTEGER PRIMARY KEY, new INTEGER NOT NULL)");
}

int64_t StringRemap::mapInput(std::string_view schema) {
  out_.exec("DELETE FROM temp.merge_strings");
  auto rows = out_.prepare("SELECT id, value FROM " + quoteIdentifier(schema) + "." + std::string(table::kStringIds) +
                           " WHERE typeof(id) = 'integer'");
  auto addString = out_.prepare("INSERT INTO main." + std::string(table::kStringIds) + " (id, value) VALUES (?1, ?2)");
  auto addMapping = out_.prepare("INSERT OR REPLACE INTO temp.merge_strings (old, new) VALUES (?1, ?2)");
  int64_t added = 0;
  while (rows.step()) {
    std::string_view text = rows.text(1);
    auto found = ids_.find(text);
    if (found == ids_.end()) {
      found = ids_.emplace(std::string(text), static_cast<int64_t>(ids_.size())).first;
      addString.reset();
      addString.bind(1, found->second);
      addString.bind(2, text);
      addString.step();
      ++added;
    }
    addMapping.reset();
    addMapping.bind(1, rows.int64(0));
    addMapping.bind(2, found->second);
    addMapping.step();
  }
  return added;
}

std::string StringRemap::mappedSql(std::string_view column) {
  return "(SELECT new FROM temp.merge_strings WHERE old = " + std::string(column) + ")";
}

std::string StringRemap::knownSql(std::string_view column) {
  return "(" + std::string(column) + " IS NULL OR " + std::string(column) + " IN (SELECT old FROM temp.merge_strings))";
}

}  // namespace gpuscope
