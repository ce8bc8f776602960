#include "collector/sampling/python_stacks.h"

#include <sys/uio.h>

#include <cstring>
#include <regex>

#include "collector/sampling/python_layout.h"

namespace gpuscope::sampling {
namespace {

constexpr int kMostFrames = 512;
constexpr int kMostThreads = 4096;
constexpr uint64_t kLongestText = 4096;

// Reads LENGTH bytes at ADDRESS of PID into INTO; false when any of it cannot be read (the memory was
// freed or changed under us: the program is not stopped).
bool readMemory(pid_t pid, uint64_t address, void* into, size_t length) {
  if (address == 0) return false;
  iovec local{into, length};
  iovec remote{reinterpret_cast<void*>(address), length};
  return process_vm_readv(pid, &local, 1, &remote, 1, 0) == static_cast<ssize_t>(length);
}

template <typename T>
bool readValue(pid_t pid, uint64_t address, T& value) {
  return readMemory(pid, address, &value, sizeof(T));
}

template <typename T>
T fieldAt(const uint8_t* base, uint64_t offset) {
  T value;
  std::memcpy(&value, base + offset, sizeof(T));
  return value;
}

// A str object's text, as UTF-8 for ASCII and Latin-1; other kinds keep their ASCII characters only.
std::optional<std::string> readUnicode(pid_t pid, uint64_t address, const PythonLayout& layout) {
  uint8_t head[80];
  if (!readMemory(pid, address, head, layout.compactData)) return std::nullopt;
  auto length = fieldAt<int64_t>(head, layout.unicodeLength);
  auto state = fieldAt<uint32_t>(head, layout.unicodeState);
  if (length < 0 || static_cast<uint64_t>(length) > kLongestText) return std::nullopt;
  unsigned kind = (state >> 2) & 7;
  bool compact = (state >> 5) & 1;
  bool ascii = (state >> 6) & 1;
  // The program runs on while we read: a pointer may already lead to something else. Only the three kinds
  // CPython has (1, 2 or 4 bytes a character) are read.
  if (!compact || (kind != 1 && kind != 2 && kind != 4)) return std::nullopt;
  uint64_t data = address + (ascii ? layout.asciiData : layout.compactData);
  std::string raw(static_cast<size_t>(length) * kind, '\0');
  if (!readMemory(pid, data, raw.data(), raw.size())) return std::nullopt;
  if (kind == 1 && ascii) return raw;
  std::string text;
  for (size_t i = 0; i < static_cast<size_t>(length); ++i) {
    uint32_t code = 0;
    std::memcpy(&code, raw.data() + i * kind, kind);
    if (code < 0x80) {
      text += static_cast<char>(code);
    } else if (code < 0x800) {
      text += static_cast<char>(0xC0 | (code >> 6));
      text += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      text += '?';
    }
  }
  return text;
}

std::optional<std::string> readBytes(pid_t pid, uint64_t address, const PythonLayout& layout) {
  int64_t size = 0;
  if (!readValue(pid, address + layout.bytesSize, size) || size < 0 || size > (1 << 20)) return std::nullopt;
  std::string bytes(static_cast<size_t>(size), '\0');
  if (size > 0 && !readMemory(pid, address + layout.bytesData, bytes.data(), bytes.size())) return std::nullopt;
  return bytes;
}

// co_linetable's variable-length integers: 6 bits a byte, low first, 0x40 when another byte follows.
unsigned readVarint(const std::string& table, size_t& at) {
  unsigned value = 0;
  int shift = 0;
  while (at < table.size()) {
    auto byte = static_cast<uint8_t>(table[at++]);
    value |= static_cast<unsigned>(byte & 0x3F) << shift;
    shift += 6;
    if (!(byte & 0x40) || shift > 30) break;
  }
  return value;
}

int readSignedVarint(const std::string& table, size_t& at) {
  unsigned value = readVarint(table, at);
  return (value & 1) ? -static_cast<int>(value >> 1) : static_cast<int>(value >> 1);
}

// glibc's struct pthread keeps the thread's kernel id at this offset on x86-64 (glibc 2.26 to 2.40).
constexpr uint64_t kGlibcPthreadTidOffset = 720;

bool readTidOfPthread(pid_t pid, uint64_t pthread, uint64_t& tid) {
  int32_t value = 0;
  if (!readValue(pid, pthread + kGlibcPthreadTidOffset, value) || value <= 0) return false;
  tid = static_cast<uint64_t>(value);
  return true;
}

}  // namespace

int lineOfCodeUnit(const std::string& table, int firstLine, int offset) {
  int line = firstLine;
  int unit = 0;
  size_t at = 0;
  while (at < table.size()) {
    auto first = static_cast<uint8_t>(table[at++]);
    if (!(first & 0x80)) continue;  // not the start of an entry: the table is not what we expect
    int code = (first >> 3) & 15;
    int length = (first & 7) + 1;
    int delta = 0;
    bool located = true;
    if (code == 15) {
      located = false;
    } else if (code == 14) {
      delta = readSignedVarint(table, at);
      readVarint(table, at);  // end line
      readVarint(table, at);  // start column
      readVarint(table, at);  // end column
    } else if (code == 13) {
      delta = readSignedVarint(table, at);
    } else if (code >= 10) {
      delta = code - 10;
      at += 2;  // start and end column
    } else {
      at += 1;  // column
    }
    line += delta;
    if (offset < unit + length) return located ? line : 0;
    unit += length;
  }
  return 0;
}

int lineOfInstruction310(const std::string& table, int firstLine, int instruction) {
  int target = instruction * 2;  // the table counts bytes of code, two an instruction
  int line = firstLine, address = 0;
  for (size_t at = 0; at + 1 < table.size(); at += 2) {
    int end = address + static_cast<uint8_t>(table[at]);
    int delta = static_cast<int8_t>(table[at + 1]);
    if (delta != -128) line += delta;
    if (target >= address && target < end) return delta == -128 ? 0 : line;
    address = end;
  }
  return 0;
}

std::string pythonVersionOf(const std::string& path) {
  static const std::regex kInterpreter(R"((^|/)(lib)?python(3\.[0-9]+)[a-z]*(\.so[.0-9]*)?$)");
  std::smatch match;
  if (!std::regex_search(path, match, kInterpreter)) return {};
  return match[3];
}

bool pythonLayoutKnown(const std::string& version) { return pythonLayout(version) != nullptr; }

void PythonStacks::addInterpreter(pid_t pid, const std::string& path, uint64_t runtimeAddress) {
  const PythonLayout* layout = pythonLayout(pythonVersionOf(path));
  if (!layout || processes_.count(pid)) return;
  Process& process = processes_[pid];
  process.layout = layout;
  process.runtime = runtimeAddress;
}

void PythonStacks::inherit(pid_t parent, pid_t child) {
  auto found = processes_.find(parent);
  if (found == processes_.end() || processes_.count(child)) return;
  Process& process = processes_[child];
  process.layout = found->second.layout;
  process.runtime = found->second.runtime;
}

std::optional<uint64_t> PythonStacks::threadState(Process& process, pid_t pid, pid_t tid) {
  auto known = process.threadStates.find(tid);
  if (known != process.threadStates.end()) return known->second;
  // A thread not seen yet: walk every interpreter's thread list again.
  const PythonLayout& layout = *process.layout;
  uint64_t interp = 0;
  if (!readValue(pid, process.runtime + layout.runtimeInterpreters, interp)) return std::nullopt;
  int visited = 0;
  for (; interp && visited < kMostThreads; ++visited) {
    uint64_t state = 0;
    readValue(pid, interp + layout.interpThreads, state);
    for (; state && visited < kMostThreads; ++visited) {
      uint64_t nativeId = 0;
      if (!readValue(pid, state + layout.threadNativeId, nativeId)) break;
      // 3.10 knows its threads by pthread_t, the address of glibc's struct pthread, which holds the tid.
      if (layout.frameObjects && !readTidOfPthread(pid, nativeId, nativeId)) nativeId = 0;
      process.threadStates[static_cast<pid_t>(nativeId)] = state;
      if (!readValue(pid, state + layout.threadNext, state)) break;
    }
    if (!readValue(pid, interp + layout.interpNext, interp)) break;
  }
  known = process.threadStates.find(tid);
  if (known == process.threadStates.end()) return std::nullopt;
  return known->second;
}

uint32_t PythonStacks::functionId(const std::string& name, const std::string& file) {
  auto [it, added] = functionIds_.try_emplace({name, file}, static_cast<uint32_t>(functions_.size()));
  if (added) functions_.push_back({name, file});
  return it->second;
}

const PythonStacks::CodeInfo* PythonStacks::codeInfo(Process& process, pid_t pid, uint64_t address) {
  const PythonLayout& layout = *process.layout;
  uint8_t head[256];
  if (!readMemory(pid, address, head, layout.codeUnits)) return nullptr;
  auto name = fieldAt<uint64_t>(head, layout.codeQualname);
  auto file = fieldAt<uint64_t>(head, layout.codeFilename);
  auto lines = fieldAt<uint64_t>(head, layout.codeLinetable);
  auto cached = process.code.find(address);
  // The same address with other objects in it is another code object, freed and replaced.
  if (cached != process.code.end() && cached->second.name == name && cached->second.file == file &&
      cached->second.linetable == lines)
    return &cached->second;
  auto nameText = readUnicode(pid, name, layout);
  auto fileText = readUnicode(pid, file, layout);
  auto table = readBytes(pid, lines, layout);
  if (!nameText || !fileText || !table) return nullptr;
  CodeInfo& info = process.code[address];
  info = {name,
          file,
          lines,
          functionId(*nameText, *fileText),
          fieldAt<int32_t>(head, layout.codeFirstLine),
          std::move(*table)};
  return &info;
}

std::vector<PythonFrame> PythonStacks::read(pid_t pid, pid_t tid) {
  std::vector<PythonFrame> frames;
  auto found = processes_.find(pid);
  if (found == processes_.end()) return frames;
  Process& process = found->second;
  const PythonLayout& layout = *process.layout;
  auto state = threadState(process, pid, tid);
  if (!state) return frames;
  // Up to 3.12 the thread state points to a _PyCFrame that holds the current frame; 3.13 holds it itself.
  uint64_t cframe = *state, frame = 0;
  bool viaCFrame = layout.threadCFrame != kNoCFrame;
  if ((viaCFrame && !readValue(pid, *state + layout.threadCFrame, cframe)) ||
      !readValue(pid, cframe + layout.cframeCurrentFrame, frame)) {
    process.threadStates.erase(tid);  // the thread ended, or its state moved
    ++failedReads_;
    return frames;
  }
  if (layout.frameObjects) {
    readFrameObjects(process, pid, frame, frames);
  } else {
    readInterpreterFrames(process, pid, frame, frames);
  }
  return frames;
}

void PythonStacks::readInterpreterFrames(Process& process, pid_t pid, uint64_t frame,
                                         std::vector<PythonFrame>& frames) {
  const PythonLayout& layout = *process.layout;
  uint8_t raw[128];
  static_assert(sizeof(raw) > 72, "the largest frameOwner offset of python_layout.cpp");
  for (int depth = 0; frame && depth < kMostFrames; ++depth) {
    if (!readMemory(pid, frame, raw, layout.frameOwner + 1)) {
      ++failedReads_;
      break;
    }
    uint64_t code = fieldAt<uint64_t>(raw, layout.frameCode);
    uint64_t previous = fieldAt<uint64_t>(raw, layout.framePrevious);
    if (layout.frameOwnedByCStack < 0 || raw[layout.frameOwner] != layout.frameOwnedByCStack) {
      const CodeInfo* info = codeInfo(process, pid, code);
      if (!info) {
        ++failedReads_;
        break;
      }
      auto instruction = fieldAt<uint64_t>(raw, layout.framePrevInstr);
      int64_t unit = (static_cast<int64_t>(instruction) - static_cast<int64_t>(code + layout.codeUnits)) / 2;
      int line = unit >= 0 ? lineOfCodeUnit(info->lines, info->firstLine, static_cast<int>(unit)) : info->firstLine;
      frames.push_back({info->function, line});
    }
    frame = previous;
  }
}

void PythonStacks::readFrameObjects(Process& process, pid_t pid, uint64_t frame, std::vector<PythonFrame>& frames) {
  const PythonLayout& layout = *process.layout;
  uint8_t raw[128];
  static_assert(sizeof(raw) > 100, "f_lasti's offset in python_layout.cpp's 3.10 layout, and its 4 bytes");
  for (int depth = 0; frame && depth < kMostFrames; ++depth) {
    if (!readMemory(pid, frame, raw, layout.framePrevInstr + sizeof(int32_t))) {
      ++failedReads_;
      break;
    }
    const CodeInfo* info = codeInfo(process, pid, fieldAt<uint64_t>(raw, layout.frameCode));
    if (!info) {
      ++failedReads_;
      break;
    }
    int lastInstruction = fieldAt<int32_t>(raw, layout.framePrevInstr);
    int line =
        lastInstruction >= 0 ? lineOfInstruction310(info->lines, info->firstLine, lastInstruction) : info->firstLine;
    frames.push_back({info->function, line});
    frame = fieldAt<uint64_t>(raw, layout.framePrevious);
  }
}

}  // namespace gpuscope::sampling
