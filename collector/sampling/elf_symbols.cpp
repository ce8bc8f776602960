#include "collector/sampling/elf_symbols.h"

#include <cxxabi.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
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
  Elf_Scn* table = sectionOfType(elf, SHT_SYMTAB);
  if (!table) table = sectionOfType(elf, SHT_DYNSYM);
  GElf_Shdr tableHeader;
  Elf_Data* data = table ? elf_getdata(table, nullptr) : nullptr;
  if (data && gelf_getshdr(table, &tableHeader) && tableHeader.sh_entsize > 0) {
    size_t count = tableHeader.sh_size / tableHeader.sh_entsize;
    for (size_t i = 0; i < count; ++i) {
      GElf_Sym symbol;
      if (!gelf_getsym(data, static_cast<int>(i), &symbol) || symbol.st_value == 0) continue;
      const char* name = elf_strptr(elf, tableHeader.sh_link, symbol.st_name);
      if (!name || !*name) continue;
      int type = GELF_ST_TYPE(symbol.st_info);
      if (type == STT_FUNC || type == STT_GNU_IFUNC)
        symbols.functions_.push_back({symbol.st_value, symbol.st_size, name});
      else if (type == STT_OBJECT)
        symbols.objects_.emplace(name, symbol.st_value);
    }
  }
  std::sort(symbols.functions_.begin(), symbols.functions_.end(),
            [](const Symbol& a, const Symbol& b) { return a.start < b.start; });
  return symbols;
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
