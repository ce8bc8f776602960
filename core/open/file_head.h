#pragma once
// FileHead: the first bytes of a file, as stored and as its content reads once gzip is undone, for the
// sniffs of the door's formats (trace_formats.h) to look at without reading the whole file.
#include <cstddef>
#include <string>
#include <string_view>

namespace gpuscope {

// How much of a file the sniffs see: room for a Chrome trace's header (device properties of many GPUs,
// distributed info, metadata) before its traceEvents key.
inline constexpr size_t kFileHeadBytes = 256 * 1024;

struct FileHead {
  std::string stored;  // the first kFileHeadBytes as on disk
  std::string text;    // the first kFileHeadBytes of the content: decompressed for gzip, else the stored bytes
  bool gzip = false;   // the stored bytes start with gzip's magic, 1f 8b
};

// Whether DATA starts with gzip's magic bytes.
bool startsWithGzipMagic(std::string_view data);

// Reads PATH's head. Throws TraceError with one sentence when PATH is missing, a directory, not a regular
// file (a pipe would block the read) or unreadable. A gzip file that does not decompress has an empty text.
FileHead readFileHead(const std::string& path);

}  // namespace gpuscope
