#include "collector/sampling/elf_symbols.h"

#include <cxxabi.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#if GPUSCOPE_HAVE_LZMA
#include <lzma.h>
#endif
#include <sys/auxv.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace gpuscope::sampling {
namespace {

struct ElfHandle {
  int fd = -1;
  Elf* elf = nullptr;
  ~ElfHandle() {
    if (elf) elf_end(elf);
    if (fd >= 0) close(fd);
  }
};

// The section of TYPE (SHT_SYMTAB or SHT_DYNSYM), or nullptr.
Elf_Scn* sectionOfType(Elf* elf, Elf64_Word type) {
  for (Elf_Scn* section = elf_nextscn(elf, nullptr); section; section = elf_nextscn(elf, section)) {
    GElf_Shdr header;
    if (gelf_getshdr(section, &header) && header.sh_type == type) return section;
  }
  return nullptr;
}

// The GNU build-id of ELF, as lower-case hex, or "".
std::string buildId(Elf* elf) {
  for (Elf_Scn* section = elf_nextscn(elf, nullptr); section; section = elf_nextscn(elf, section)) {
    GElf_Shdr header;
    if (!gelf_getshdr(section, &header) || header.sh_type != SHT_NOTE) continue;
    Elf_Data* data = elf_getdata(section, nullptr);
    GElf_Nhdr note;
    size_t nameAt = 0, descAt = 0;
    for (size_t at = 0; data && (at = gelf_getnote(data, at, &note, &nameAt, &descAt)) > 0;) {
      if (note.n_type != NT_GNU_BUILD_ID || note.n_namesz != 4 ||
          std::memcmp(static_cast<const char*>(data->d_buf) + nameAt, "GNU", 4) != 0)
        continue;
      static const char kHex[] = "0123456789abcdef";
      std::string hex;
      for (size_t i = 0; i < note.n_descsz; ++i) {
        auto byte = static_cast<const uint8_t*>(data->d_buf)[descAt + i];
        hex += kHex[byte >> 4];
        hex += kHex[byte & 15];
      }
      return hex;
    }
  }
  return {};
}

// /usr/lib/debug/.build-id/ab/cdef….debug, where the file's debug symbols were installed apart from it.
std::optional<std::string> detachedDebugFile(Elf* elf) {
  std::string id = buildId(elf);
  if (id.size() < 4) return std::nullopt;
  std::string path = "/usr/lib/debug/.build-id/" + id.substr(0, 2) + "/" + id.substr(2) + ".debug";
  if (access(path.c_str(), R_OK) != 0) return std::nullopt;
  return path;
}

// The ELF image that .gnu_debugdata holds xz-compressed (MiniDebugInfo), or "" (always without liblzma).
std::string miniDebugInfo([[maybe_unused]] Elf* elf) {
#if GPUSCOPE_HAVE_LZMA
  Elf_Scn* section = nullptr;
  size_t names = 0;
  if (elf_getshdrstrndx(elf, &names) != 0) return {};
  for (Elf_Scn* s = elf_nextscn(elf, nullptr); s; s = elf_nextscn(elf, s)) {
    GElf_Shdr header;
    const char* name = gelf_getshdr(s, &header) ? elf_strptr(elf, names, header.sh_name) : nullptr;
    if (name && std::strcmp(name, ".gnu_debugdata") == 0) section = s;
  }
  Elf_Data* data = section ? elf_getdata(section, nullptr) : nullptr;
  if (!data || data->d_size == 0) return {};
  std::string image(data->d_size * 8, '\0');
  for (int attempt = 0; attempt < 4; ++attempt) {
    uint64_t memoryLimit = UINT64_MAX;
    size_t in = 0, out = 0;
    lzma_ret result =
        lzma_stream_buffer_decode(&memoryLimit, 0, nullptr, static_cast<const uint8_t*>(data->d_buf), &in, data->d_size,
                                  reinterpret_cast<uint8_t*>(image.data()), &out, image.size());
    if (result == LZMA_OK) {
      image.resize(out);
      return image;
    }
    if (result != LZMA_BUF_ERROR) return {};
    image.resize(image.size() * 4);
  }
#endif
  return {};
}

}  // namespace

std::optional<ElfSymbols> ElfSymbols::load(const std::string& path) {
  if (path == kVdsoName) return loadVdso();
  if (path.empty() || path.front() != '/') return std::nullopt;  // [heap], anonymous memory
  elf_version(EV_CURRENT);
  ElfHandle handle;
  handle.fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (handle.fd < 0) return std::nullopt;
  handle.elf = elf_begin(handle.fd, ELF_C_READ_MMAP, nullptr);
  return read(handle.elf);
}

// The kernel maps one vDSO image into every process: the recorder's own is the program's, at another
// address. Its size is that of the recorder's [vdso] mapping.
std::optional<ElfSymbols> ElfSymbols::loadVdso() {
  auto base = getauxval(AT_SYSINFO_EHDR);
  if (base == 0) return std::nullopt;
  std::ifstream maps("/proc/self/maps");
  std::string line;
  uint64_t size = 0;
  while (std::getline(maps, line)) {
    if (line.find("[vdso]") == std::string::npos) continue;
    uint64_t start = 0, end = 0;
    char dash = 0;
    std::istringstream(line) >> std::hex >> start >> dash >> end;
    if (start == base && end > start) size = end - start;
  }
  if (size == 0) return std::nullopt;
  std::vector<char> image(reinterpret_cast<const char*>(base), reinterpret_cast<const char*>(base) + size);
  elf_version(EV_CURRENT);
  ElfHandle handle;
  handle.elf = elf_memory(image.data(), image.size());
  return read(handle.elf);
}

std::optional<ElfSymbols> ElfSymbols::read(Elf* elf) {
  GElf_Ehdr header;
  if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &header)) return std::nullopt;

  ElfSymbols symbols;
  symbols.positionIndependent_ = header.e_type == ET_DYN;
  size_t programHeaders = 0;
  elf_getphdrnum(elf, &programHeaders);
  for (size_t i = 0; i < programHeaders; ++i) {
    GElf_Phdr segment;
    if (gelf_getphdr(elf, static_cast<int>(i), &segment) && segment.p_type == PT_LOAD)
      symbols.segments_.push_back({segment.p_offset, segment.p_vaddr, segment.p_filesz});
  }
  // The full symbol table, wherever this file's is: its own .symtab; else the detached debug file its
  // build-id names (Debian's -dbg and -dbgsym packages); else its .dynsym, with the MiniDebugInfo
  // (.gnu_debugdata, Fedora's) symbols that .dynsym lacks.
  if (!symbols.addTable(elf, SHT_SYMTAB)) {
    bool detached = false;
    if (auto debugFile = detachedDebugFile(elf)) {
      ElfHandle debug;
      debug.fd = open(debugFile->c_str(), O_RDONLY | O_CLOEXEC);
      if (debug.fd >= 0) debug.elf = elf_begin(debug.fd, ELF_C_READ_MMAP, nullptr);
      detached = debug.elf && symbols.addTable(debug.elf, SHT_SYMTAB);
    }
    if (!detached) {
      symbols.addTable(elf, SHT_DYNSYM);
      std::string mini = miniDebugInfo(elf);
      if (!mini.empty()) {
        ElfHandle embedded;
        embedded.elf = elf_memory(mini.data(), mini.size());
        symbols.addTable(embedded.elf, SHT_SYMTAB);
      }
    }
  }
  std::sort(symbols.functions_.begin(), symbols.functions_.end(),
            [](const Symbol& a, const Symbol& b) { return a.start < b.start; });
  return symbols;
}

bool ElfSymbols::addTable(Elf* elf, Elf64_Word type) {
  Elf_Scn* table = elf ? sectionOfType(elf, type) : nullptr;
  GElf_Shdr tableHeader;
  Elf_Data* data = table ? elf_getdata(table, nullptr) : nullptr;
  if (!data || !gelf_getshdr(table, &tableHeader) || tableHeader.sh_entsize == 0) return false;
  size_t count = tableHeader.sh_size / tableHeader.sh_entsize;
  size_t added = 0;
  for (size_t i = 0; i < count; ++i) {
    GElf_Sym symbol;
    if (!gelf_getsym(data, static_cast<int>(i), &symbol) || symbol.st_value == 0) continue;
    const char* name = elf_strptr(elf, tableHeader.sh_link, symbol.st_name);
    if (!name || !*name) continue;
    int symbolType = GELF_ST_TYPE(symbol.st_info);
    if (symbolType == STT_FUNC || symbolType == STT_GNU_IFUNC) {
      functions_.push_back({symbol.st_value, symbol.st_size, name});
      ++added;
    } else if (symbolType == STT_OBJECT) {
      objects_.emplace(name, symbol.st_value);
      ++added;
    }
  }
  return added > 0;
}

uint64_t ElfSymbols::loadBias(uint64_t start, uint64_t pageOffset) const {
  if (!positionIndependent_) return 0;
  for (const Segment& segment : segments_) {
    // The segment the mapping's first page belongs to (its offset rounded down to a page).
    uint64_t segmentPage = segment.offset & ~uint64_t{0xFFF};
    if (pageOffset >= segmentPage && pageOffset < segment.offset + segment.fileSize)
      return start - (segment.vaddr - (segment.offset - pageOffset));
  }
  return start - pageOffset;
}

const std::string* ElfSymbols::functionAt(uint64_t address) const {
  auto after = std::upper_bound(functions_.begin(), functions_.end(), address,
                                [](uint64_t value, const Symbol& symbol) { return value < symbol.start; });
  if (after == functions_.begin()) return nullptr;
  const Symbol& symbol = *std::prev(after);
  // A symbol of size 0 (hand-written assembly) covers up to the next one.
  if (symbol.size != 0 && address >= symbol.start + symbol.size) return nullptr;
  return &symbol.name;
}

std::optional<uint64_t> ElfSymbols::addressOf(std::string_view name) const {
  auto found = objects_.find(std::string(name));
  if (found != objects_.end()) return found->second;
  return std::nullopt;
}

const ElfSymbols* ElfSymbolCache::get(const std::string& path) {
  auto found = files_.find(path);
  if (found == files_.end()) {
    auto loaded = ElfSymbols::load(path);
    found = files_.emplace(path, loaded ? std::make_unique<ElfSymbols>(std::move(*loaded)) : nullptr).first;
  }
  return found->second.get();
}

std::string demangledSymbol(const std::string& symbol) {
  if (!symbol.starts_with("_Z")) return symbol;
  int status = 0;
  char* text = abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status);
  if (status != 0 || !text) return symbol;
  std::string result(text);
  std::free(text);
  return result;
}

}  // namespace gpuscope::sampling
