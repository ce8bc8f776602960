#pragma once
// Looking at the start of a JSON document without parsing all of it: what the door's sniffs need to tell a
// Chrome trace from any other JSON by its top-level keys rather than by its first character.
#include <string>
#include <string_view>
#include <vector>

namespace gpuscope {

// Whether TEXT, after a UTF-8 byte order mark and white space, starts a JSON object or array.
bool startsLikeJson(std::string_view text);

// The keys of the JSON object TEXT starts with, at its top level only (a key of a nested object does not
// count), in order, as far as TEXT goes: TEXT may end in the middle of the document, as a file's head does.
// Escapes in a key are kept as written. Empty when TEXT does not start with an object.
std::vector<std::string> topLevelJsonKeys(std::string_view text);

}  // namespace gpuscope
