#include "core/open/json_head.h"

namespace gpuscope {
namespace {

// The index of TEXT's first character after a UTF-8 byte order mark and JSON white space.
size_t firstSignificant(std::string_view text) {
  size_t i = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' || text[i] == '\t')) ++i;
  return i;
}

// The index of the quote that closes the string opened at OPEN, or npos when TEXT ends first.
size_t closingQuote(std::string_view text, size_t open) {
  for (size_t i = open + 1; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == '"') {
      return i;
    }
  }
  return std::string_view::npos;
}

}  // namespace

bool startsLikeJson(std::string_view text) {
  size_t i = firstSignificant(text);
  return i < text.size() && (text[i] == '{' || text[i] == '[');
}

std::vector<std::string> topLevelJsonKeys(std::string_view text) {
  std::vector<std::string> keys;
  size_t i = firstSignificant(text);
  if (i >= text.size() || text[i] != '{') return keys;
  int depth = 0;
  bool keyNext = false;  // at the top level, right after the opening brace or a comma
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') {
      size_t end = closingQuote(text, i);
      if (end == std::string_view::npos) break;
      if (depth == 1 && keyNext) keys.emplace_back(text.substr(i + 1, end - i - 1));
      keyNext = false;
      i = end;
    } else if (c == '{' || c == '[') {
      keyNext = (++depth == 1);
    } else if (c == '}' || c == ']') {
      if (--depth == 0) break;
      keyNext = false;
    } else if (c == ',') {
      keyNext = depth == 1;
    }
  }
  return keys;
}

}  // namespace gpuscope
