#include "core/identity/kernel_identity.h"

#include <cctype>

#include "core/identity/kernel_signature.h"

namespace gpuscope {
namespace {

bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool isSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

void replaceAll(std::string& text, std::string_view from, std::string_view to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

// The index just past the bracket that closes the one at OPEN (any of ( < [ {), or npos.
size_t matchingClose(std::string_view text, size_t open) {
  int depth = 0;
  for (size_t i = open; i < text.size(); ++i) {
    char c = text[i];
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') {
      if (--depth == 0) return i + 1;
    }
  }
  return std::string_view::npos;
}

// "[lambda(float) (instance 1)]" -> "{lambda(float)#1}", "[unnamed type (instance 2)]" likewise.
std::string unifyLambdas(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if (text[i] == '[') {
      size_t close = matchingClose(text, i);
      std::string_view inside =
          close == std::string_view::npos ? std::string_view{} : text.substr(i + 1, close - i - 2);
      size_t instance = inside.rfind(" (instance ");
      if (instance != std::string_view::npos && inside.back() == ')') {
        std::string_view number = inside.substr(instance + 11, inside.size() - instance - 12);
        out += '{';
        out += unifyLambdas(inside.substr(0, instance));
        out += '#';
        out += number;
        out += '}';
        i = close;
        continue;
      }
    }
    out += text[i++];
  }
  return out;
}

// The last non-space character before POS in OUT, or 0.
char previousChar(const std::string& out) {
  for (size_t i = out.size(); i > 0; --i)
    if (!isSpace(out[i - 1])) return out[i - 1];
  return 0;
}

// Whether TEXT at I starts a literal a cast may precede: a digit or a minus sign and a digit.
bool startsLiteral(std::string_view text, size_t i) {
  while (i < text.size() && isSpace(text[i])) ++i;
  if (i < text.size() && text[i] == '-') ++i;
  return i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]));
}

// Empties parameter lists, drops casts on literals and "void " return types, in one pass.
std::string stripParametersAndCasts(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    if (c == '(') {
      size_t close = matchingClose(text, i);
      if (close == std::string_view::npos) {
        out.append(text.substr(i));
        break;
      }
      char before = previousChar(out);
      bool call = isIdentChar(before) || before == '>' || before == ')' || before == '}' || before == ']';
      if (call) {
        out += "()";
        i = close;
        continue;
      }
      if (startsLiteral(text, close)) {  // "(int)4": a cast on a literal
        i = close;
        continue;
      }
    }
    if (isIdentChar(c) && (out.empty() || !isIdentChar(out.back()))) {
      size_t end = i;
      while (end < text.size() && isIdentChar(text[end])) ++end;
      std::string_view word = text.substr(i, end - i);
      size_t next = end;
      while (next < text.size() && isSpace(text[next])) ++next;
      bool returnType = word == "void" && next > end && next < text.size() &&
                        (isIdentChar(text[next]) || text[next] == '(');  // "(anonymous namespace)"
      if (returnType) {
        i = next;
        continue;
      }
      out.append(word);
      i = end;
      continue;
    }
    out += c;
    ++i;
  }
  return out;
}

// Drops "ns::" qualifiers (a plain word before "::"), turns true/false into 1/0 and drops integer suffixes.
std::string dropQualifiersAndSpellLiterals(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if (!isIdentChar(text[i])) {
      out += text[i++];
      continue;
    }
    size_t end = i;
    while (end < text.size() && isIdentChar(text[end])) ++end;
    std::string_view word = text.substr(i, end - i);
    bool qualifier = text.substr(end, 2) == "::";
    if (qualifier && word != "operator") {
      i = end + 2;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(word[0]))) {
      size_t digits = 0;
      bool hex = word.size() > 2 && word[0] == '0' && (word[1] == 'x' || word[1] == 'X');
      while (digits < word.size() && (hex ? std::isxdigit(static_cast<unsigned char>(word[digits])) || digits < 2
                                          : std::isdigit(static_cast<unsigned char>(word[digits]))))
        ++digits;
      std::string_view suffix = word.substr(digits);
      bool integerSuffix = !suffix.empty() && suffix.find_first_not_of("uUlL") == std::string_view::npos;
      out.append(integerSuffix ? word.substr(0, digits) : word);
    } else if (word == "true") {
      out += '1';
    } else if (word == "false") {
      out += '0';
    } else {
      out.append(word);
    }
    i = end;
  }
  return out;
}

}  // namespace

std::string kernelIdentity(std::string_view demangled) {
  std::string text = unifyLambdas(demangled);
  replaceAll(text, "(anonymous namespace)::", "");
  replaceAll(text, "<unnamed>::", "");
  replaceAll(text, "operator ()", "operator()");
  text = stripParametersAndCasts(text);
  text = dropQualifiersAndSpellLiterals(text);
  return canonicalKernelSignature(text);
}

bool sameKernel(std::string_view mangledA, std::string_view demangledA, std::string_view mangledB,
                std::string_view demangledB) {
  if (!mangledA.empty() && !mangledB.empty()) return mangledA == mangledB;
  return kernelIdentity(demangledA) == kernelIdentity(demangledB);
}

std::string kernelShortName(std::string_view demangled) {
  std::string text(demangled);
  replaceAll(text, "(anonymous namespace)::", "");
  replaceAll(text, "<unnamed>::", "");
  if (text.rfind("void ", 0) == 0) text.erase(0, 5);
  size_t cut = text.find_first_of("<(");
  std::string head = text.substr(0, cut);
  while (!head.empty() && isSpace(head.back())) head.pop_back();
  size_t colon = head.rfind("::");
  if (colon != std::string::npos) head.erase(0, colon + 2);
  return head.empty() ? std::string(demangled) : head;
}

}  // namespace gpuscope
