#pragma once
// Names from a trace file need not be valid UTF-8, but protobuf string fields must be: each byte that
// does not start a well-formed UTF-8 sequence becomes U+FFFD, as nlohmann's "replace" does for JSON.
#include <string>
#include <string_view>

namespace gpuscope {

std::string validUtf8(std::string_view text);

}  // namespace gpuscope
