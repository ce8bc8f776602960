#pragma once
// StringRemap: the merged file's StringIds, each text once, and for the input being copied, which merged
// id each of its own string ids became (the temp table temp.merge_strings, old -> new), so that copying
// SQL can map its string columns in place.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

namespace gpuscope {

class Database;

class StringRemap {
 public:
  // OUT: the merged file (its StringIds empty or written by this remap only).
  explicit StringRemap(Database& out);

  // Interns every StringIds row of the input attached to OUT as SCHEMA and fills temp.merge_strings
  // with its ids. Returns how many of its texts were new to the merged file.
  int64_t mapInput(std::string_view schema);

  // SQL for the merged id of the input's string id COLUMN (NULL when the input has no such id).
  static std::string mappedSql(std::string_view column);
  // SQL that is true when COLUMN is NULL or an id the input's StringIds has.
  static std::string knownSql(std::string_view column);

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
  };
  Database& out_;
  std::unordered_map<std::string, int64_t, Hash, std::equal_to<>> ids_;
};

}  // namespace gpuscope
