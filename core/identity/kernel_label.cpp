#include "core/identity/kernel_label.h"

#include <cctype>
#include <map>
#include <optional>

namespace gpuscope {
namespace {

constexpr std::string_view kEllipsis = "\u2026";
constexpr size_t kNone = std::string_view::npos;

bool opens(char c) { return c == '<' || c == '(' || c == '[' || c == '{'; }
bool closes(char c) { return c == '>' || c == ')' || c == ']' || c == '}'; }

// The index of the bracket that closes the one at OPEN, or kNone.
size_t closing(std::string_view text, size_t openAt) {
  int depth = 0;
  for (size_t i = openAt; i < text.size(); ++i) {
    if (opens(text[i])) ++depth;
    if (closes(text[i]) && --depth == 0) return i;
  }
  return kNone;
}

// The first of CHARS in TEXT outside every bracket, or kNone.
size_t firstOutside(std::string_view text, std::string_view chars) {
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (depth == 0 && chars.find(text[i]) != kNone) return i;
    if (opens(text[i])) ++depth;
    if (closes(text[i])) --depth;
  }
  return kNone;
}

std::string trimmed(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return std::string(text);
}

// The comma-separated items of INSIDE (the text between two brackets), split outside nested brackets.
std::vector<std::string> items(std::string_view inside) {
  std::vector<std::string> out;
  int depth = 0;
  size_t from = 0;
  for (size_t i = 0; i < inside.size(); ++i) {
    if (opens(inside[i])) ++depth;
    if (closes(inside[i])) --depth;
    if (inside[i] == ',' && depth == 0) {
      out.push_back(trimmed(inside.substr(from, i - from)));
      from = i + 1;
    }
  }
  if (std::string last = trimmed(inside.substr(from)); !last.empty() || !out.empty()) out.push_back(last);
  return out;
}

// "at::native::ReduceOp" -> "ReduceOp", "void f" -> "f": a head (no brackets) without qualifiers or return type.
std::string unqualified(std::string_view head) {
  if (size_t colon = head.rfind("::"); colon != kNone) head.remove_prefix(colon + 2);
  if (head.substr(0, 5) == "void ") head.remove_prefix(5);
  return trimmed(head);
}

// HEAD<ARGS>TAIL; ARGS empty and TEMPLATED false when TEXT has no template arguments.
struct Piece {
  std::string head;
  bool templated = false;
  std::vector<std::string> args;
  std::string tail;
};

Piece parsePiece(std::string_view text) {
  Piece piece;
  size_t openAt = firstOutside(text, "<");
  size_t closeAt = openAt == kNone ? kNone : closing(text, openAt);
  if (closeAt == kNone) {
    piece.head = std::string(text);
    return piece;
  }
  piece.head = std::string(text.substr(0, openAt));
  piece.templated = true;
  piece.args = items(text.substr(openAt + 1, closeAt - openAt - 1));
  piece.tail = std::string(text.substr(closeAt + 1));
  return piece;
}

// An argument in few characters: "(int)512" -> "512", "at::native::MeanOps<float, ...>" -> "MeanOps<…>",
// "at::native::f(at::Tensor &)::[lambda() (instance 1)]" -> "f(…)…".
std::string shortText(std::string_view text) {
  if (!text.empty() && text.front() == '(') {
    size_t closeAt = closing(text, 0);
    std::string_view value = closeAt == kNone ? std::string_view{} : text.substr(closeAt + 1);
    if (!value.empty() && (std::isdigit(static_cast<unsigned char>(value.front())) || value.front() == '-'))
      return std::string(value);
  }
  size_t openAt = firstOutside(text, "<(");
  if (openAt == kNone) return unqualified(text);
  size_t closeAt = closing(text, openAt);
  std::string out = unqualified(text.substr(0, openAt));
  out += text[openAt] == '<' ? "<" : "(";
  out += kEllipsis;
  out += text[openAt] == '<' ? ">" : ")";
  if (closeAt != kNone && closeAt + 1 < text.size()) out += kEllipsis;
  return out;
}

std::string renderArgument(const std::string& mine, const std::vector<const std::string*>& others);

// Which of MINE tell it from each of OTHERS (the first position that does, in order), rendered against the
// others that differ there; RESOLVED false when some other one is told apart by none.
struct Chosen {
  std::map<size_t, std::string> shown;  // by position
  bool resolved = true;
};

Chosen choose(const std::vector<std::string>& mine, const std::vector<const std::vector<std::string>*>& others) {
  Chosen chosen;
  std::vector<const std::vector<std::string>*> pending = others;
  for (size_t at = 0; at < mine.size() && !pending.empty(); ++at) {
    std::vector<const std::string*> differing;
    std::vector<const std::vector<std::string>*> still;
    for (const auto* other : pending) {
      if (at < other->size() && (*other)[at] == mine[at]) {
        still.push_back(other);
      } else if (at < other->size()) {
        differing.push_back(&(*other)[at]);
      }
    }
    // An other with fewer items differs too, by having none here.
    bool shorter = differing.size() + still.size() < pending.size();
    if (!differing.empty() || shorter) chosen.shown[at] = renderArgument(mine[at], differing);
    pending = std::move(still);
  }
  chosen.resolved = pending.empty();
  return chosen;
}

// ITEMS [FROM, TO) of a sequence, the chosen ones as shown and each run of the others as one "…".
std::string joined(const Chosen& chosen, size_t from, size_t to) {
  std::string out;
  bool elided = false;
  for (size_t at = from; at < to; ++at) {
    auto found = chosen.shown.find(at);
    if (found == chosen.shown.end() && elided) continue;
    if (at > from) out += ", ";
    out += found == chosen.shown.end() ? std::string(kEllipsis) : found->second;
    elided = found == chosen.shown.end();
  }
  return out;
}

std::string renderArgument(const std::string& mine, const std::vector<const std::string*>& others) {
  Piece piece = parsePiece(mine);
  if (!piece.templated || others.empty()) return shortText(mine);
  std::vector<Piece> otherPieces;
  for (const std::string* other : others) {
    otherPieces.push_back(parsePiece(*other));
    const Piece& last = otherPieces.back();
    if (!last.templated || last.head != piece.head || last.tail != piece.tail) return shortText(mine);
  }
  // One template on both sides: follow it down to the arguments that differ.
  std::vector<const std::vector<std::string>*> otherArgs;
  for (const Piece& other : otherPieces) otherArgs.push_back(&other.args);
  Chosen chosen = choose(piece.args, otherArgs);
  std::string out = unqualified(piece.head) + "<" + joined(chosen, 0, piece.args.size()) + ">";
  return piece.tail.empty() ? out : out + std::string(kEllipsis);
}

std::string withoutAnonymousNamespaces(std::string_view text) {
  std::string out(text);
  for (std::string_view anonymous : {"(anonymous namespace)::", "<unnamed>::"}) {
    for (size_t at = out.find(anonymous); at != kNone; at = out.find(anonymous, at)) out.erase(at, anonymous.size());
  }
  return out;
}

// A kernel's template arguments and parameters, after its own name SHORT in DEMANGLED.
struct KernelParts {
  std::vector<std::string> items;  // template arguments, then parameters
  size_t templateCount = 0;
};

std::optional<KernelParts> kernelParts(std::string_view shortName, std::string_view demangledText) {
  std::string demangled = withoutAnonymousNamespaces(demangledText);
  std::string_view text = demangled;
  int depth = 0;
  for (size_t i = 0; i + shortName.size() <= text.size(); ++i) {
    if (opens(text[i])) ++depth;
    if (closes(text[i])) --depth;
    if (depth != 0 || text.compare(i, shortName.size(), shortName) != 0) continue;
    if (i > 0 && text[i - 1] != ':' && text[i - 1] != ' ') continue;
    size_t after = i + shortName.size();
    if (after < text.size() && text[after] != '<' && text[after] != '(') continue;
    KernelParts parts;
    if (after < text.size() && text[after] == '<') {
      size_t closeAt = closing(text, after);
      if (closeAt == kNone) return std::nullopt;
      parts.items = items(text.substr(after + 1, closeAt - after - 1));
      parts.templateCount = parts.items.size();
      after = closeAt + 1;
    }
    if (after < text.size() && text[after] == '(') {
      size_t closeAt = closing(text, after);
      if (closeAt == kNone) return std::nullopt;
      for (std::string& parameter : items(text.substr(after + 1, closeAt - after - 1)))
        parts.items.push_back(std::move(parameter));
    }
    return parts;
  }
  return std::nullopt;
}

// The labels of KERNELS, which share one short name and have different demangled names.
std::vector<std::string> labelsOfOneShortName(const std::vector<KernelSpelling>& kernels) {
  std::vector<std::optional<KernelParts>> parts;
  for (const KernelSpelling& kernel : kernels) parts.push_back(kernelParts(kernel.shortName, kernel.demangled));
  std::vector<std::string> labels;
  for (size_t k = 0; k < kernels.size(); ++k) {
    std::vector<const std::vector<std::string>*> others;
    bool parsed = parts[k].has_value();
    for (size_t o = 0; o < kernels.size() && parsed; ++o) {
      if (o == k) continue;
      parsed = parts[o].has_value();
      if (parsed) others.push_back(&parts[o]->items);
    }
    Chosen chosen = parsed ? choose(parts[k]->items, others) : Chosen{{}, false};
    if (!chosen.resolved) {
      labels.emplace_back(kernels[k].demangled);
      continue;
    }
    const KernelParts& mine = *parts[k];
    std::string label(kernels[k].shortName);
    auto shownIn = [&chosen](size_t from, size_t to) {
      auto first = chosen.shown.lower_bound(from);
      return first != chosen.shown.end() && first->first < to;
    };
    if (shownIn(0, mine.templateCount)) label += "<" + joined(chosen, 0, mine.templateCount) + ">";
    if (shownIn(mine.templateCount, mine.items.size()))
      label += "(" + joined(chosen, mine.templateCount, mine.items.size()) + ")";
    labels.push_back(std::move(label));
  }
  // The safety net: labels that still meet (a shortened head that hid the difference) say everything.
  std::map<std::string, int> uses;
  for (const std::string& label : labels) ++uses[label];
  for (size_t k = 0; k < kernels.size(); ++k) {
    if (uses[labels[k]] > 1) labels[k] = std::string(kernels[k].demangled);
  }
  return labels;
}

}  // namespace

std::vector<std::string> distinguishingKernelLabels(const std::vector<KernelSpelling>& kernels) {
  std::vector<std::string> labels(kernels.size());
  // By short name, each demangled name once (its first entry), in order.
  std::map<std::string_view, std::vector<size_t>> firstOfEach;
  std::map<std::pair<std::string_view, std::string_view>, size_t> seen;
  std::vector<size_t> sameAs(kernels.size());
  for (size_t k = 0; k < kernels.size(); ++k) {
    auto [it, added] = seen.emplace(std::make_pair(kernels[k].shortName, kernels[k].demangled), k);
    sameAs[k] = it->second;
    if (added) firstOfEach[kernels[k].shortName].push_back(k);
  }
  for (const auto& [shortName, members] : firstOfEach) {
    if (members.size() == 1) {
      labels[members.front()] = std::string(shortName);
      continue;
    }
    std::vector<KernelSpelling> group;
    for (size_t k : members) group.push_back(kernels[k]);
    std::vector<std::string> groupLabels = labelsOfOneShortName(group);
    for (size_t i = 0; i < members.size(); ++i) labels[members[i]] = std::move(groupLabels[i]);
  }
  for (size_t k = 0; k < kernels.size(); ++k) {
    if (sameAs[k] != k) labels[k] = labels[sameAs[k]];
  }
  return labels;
}

}  // namespace gpuscope
