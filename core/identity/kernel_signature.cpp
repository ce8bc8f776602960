#include "core/identity/kernel_signature.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace gpuscope {
namespace {

bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':'; }
bool isDelimiter(char c) { return c == '(' || c == ')' || c == '<' || c == '>' || c == ','; }

// The words of one parameter, sorted, then its symbols in order.
void appendSegment(std::vector<std::string>& words, std::string& symbols, std::string& out) {
  std::sort(words.begin(), words.end());
  for (size_t i = 0; i < words.size(); ++i) {
    if (i) out += ' ';
    out += words[i];
  }
  out += symbols;
  words.clear();
  symbols.clear();
}

}  // namespace

std::string canonicalKernelSignature(std::string_view demangled) {
  std::string out;
  std::vector<std::string> words;
  std::string symbols;
  for (size_t i = 0; i < demangled.size();) {
    char c = demangled[i];
    if (isWordChar(c)) {
      size_t end = i;
      while (end < demangled.size() && isWordChar(demangled[end])) ++end;
      words.emplace_back(demangled.substr(i, end - i));
      i = end;
      continue;
    }
    if (isDelimiter(c)) {
      appendSegment(words, symbols, out);
      out += c;
    } else if (!std::isspace(static_cast<unsigned char>(c))) {
      symbols += c;
    }
    ++i;
  }
  appendSegment(words, symbols, out);
  return out;
}

}  // namespace gpuscope
