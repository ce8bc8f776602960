#include "core/model/string_table.h"

#include <utility>

#include "core/db/sqlite_database.h"
#include "core/error.h"

namespace gpuscope {

void StringTable::loadStringIds(const Database& db) {
  std::vector<std::pair<int64_t, std::string>> rows;
  auto stmt = db.prepare("SELECT id, value FROM StringIds");
  int64_t maxId = -1;
  while (stmt.step()) {
    if (stmt.isNull(0)) throw TraceError("The StringIds table has a row without an id.");
    int64_t id = stmt.int64(0);
    maxId = std::max(maxId, id);
    rows.emplace_back(id, std::string(stmt.text(1)));
  }
  // Dense ids (the normal case) map through a vector; sparse or negative ones through a hash map.
  bool dense = maxId < static_cast<int64_t>(rows.size()) * 4 + 1024;
  for (const auto& row : rows) dense = dense && row.first >= 0;
  if (dense) dense_.assign(static_cast<size_t>(maxId + 1), kMissing);
  strings_.reserve(rows.size());
  for (auto& [id, value] : rows) {
    auto ours = static_cast<StringId>(strings_.size());
    if (dense) {
      dense_[static_cast<size_t>(id)] = ours;
    } else {
      sparse_[id] = ours;
    }
    strings_.push_back(std::move(value));
  }
}

StringId StringTable::intern(std::string_view text) {
  auto it = byText_.find(std::string(text));
  if (it != byText_.end()) return it->second;
  auto id = static_cast<StringId>(strings_.size());
  strings_.emplace_back(text);
  byText_.emplace(std::string(text), id);
  return id;
}

}  // namespace gpuscope
