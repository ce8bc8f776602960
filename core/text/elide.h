#pragma once
// Fitting text to a width in terminal columns, for every table the CLI prints: long names keep their
// start and their end (a kernel's name and its parameters) and lose their middle to "…".
#include <cstddef>
#include <string>
#include <string_view>

namespace gpuscope {

// The columns UTF-8 TEXT takes in a terminal: one per code point (bytes that continue a code point
// do not count; a stray byte counts one, as a terminal shows it as one replacement character).
size_t displayWidth(std::string_view text);

// TEXT in at most COLUMNS columns: itself when it fits, else its first and last code points around "…"
// (U+2026), the start one longer when they cannot be even. Never splits a code point.
std::string elideMiddle(std::string_view text, size_t columns);

}  // namespace gpuscope
