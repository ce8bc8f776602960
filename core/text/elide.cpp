#include "core/text/elide.h"

namespace gpuscope {
namespace {

constexpr std::string_view kEllipsis = "\u2026";

bool continues(char byte) { return (static_cast<unsigned char>(byte) & 0xC0) == 0x80; }

// The byte offset just past the first COUNT code points of TEXT (its size when it has fewer).
size_t afterCodePoints(std::string_view text, size_t count) {
  size_t at = 0;
  for (size_t seen = 0; at < text.size() && seen < count; ++seen) {
    ++at;
    while (at < text.size() && continues(text[at])) ++at;
  }
  return at;
}

// The byte offset where the last COUNT code points of TEXT start (0 when it has fewer).
size_t beforeLastCodePoints(std::string_view text, size_t count) {
  size_t at = text.size();
  for (size_t seen = 0; at > 0 && seen < count; ++seen) {
    --at;
    while (at > 0 && continues(text[at])) --at;
  }
  return at;
}

}  // namespace

size_t displayWidth(std::string_view text) {
  size_t columns = !text.empty() && continues(text[0]) ? 1 : 0;  // a stray byte first starts a column too
  for (char byte : text) columns += continues(byte) ? 0 : 1;
  return columns;
}

std::string elideMiddle(std::string_view text, size_t columns) {
  size_t width = displayWidth(text);
  if (width <= columns) return std::string(text);
  if (columns == 0) return {};
  size_t kept = columns - 1;  // the ellipsis takes one column
  size_t head = afterCodePoints(text, (kept + 1) / 2);
  size_t tail = beforeLastCodePoints(text, kept / 2);
  std::string out(text.substr(0, head));
  out += kEllipsis;
  out += text.substr(tail);
  return out;
}

}  // namespace gpuscope
