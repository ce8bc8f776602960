#pragma once
// StringTable: the trace's strings, addressed by dense StringId, with the file's StringIds ids mapped in.
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/model/trace_types.h"

namespace gpuscope {

class Database;

class StringTable {
 public:
  static constexpr StringId kMissing = std::numeric_limits<StringId>::max();

  // Reads every row of StringIds; ids may be sparse or unordered.
  void loadStringIds(const Database& db);

  // The StringId of a file's StringIds id, or kMissing when the file has no such string. Hot path.
  StringId fromFileId(int64_t fileId) const {
    if (fileId >= 0 && static_cast<uint64_t>(fileId) < dense_.size()) return dense_[static_cast<size_t>(fileId)];
    if (sparse_.empty()) return kMissing;
    auto it = sparse_.find(fileId);
    return it == sparse_.end() ? kMissing : it->second;
  }

  // Adds a string that is not in StringIds (inline NVTX text, synthesized labels); returns its id.
  StringId intern(std::string_view text);

  std::vector<std::string> release() { return std::move(strings_); }
  size_t size() const { return strings_.size(); }

 private:
  std::vector<std::string> strings_;
  std::vector<StringId> dense_;                   // file id -> StringId when file ids are dense
  std::unordered_map<int64_t, StringId> sparse_;  // otherwise
  std::unordered_map<std::string, StringId> byText_;
};

}  // namespace gpuscope
