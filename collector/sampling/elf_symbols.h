#pragma once
// ElfSymbols: the function symbols of one ELF file (its .symtab; else the detached debug file its build-id
// names under /usr/lib/debug/.build-id; else its .dynsym with its MiniDebugInfo, .gnu_debugdata), read with
// elfutils' libelf, for naming sampled addresses once the recording has ended, and the load bias of a mapping of it.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

struct Elf;  // libelf's

namespace gpuscope::sampling {

// How perf names the kernel's vDSO mapping.
inline constexpr std::string_view kVdsoName = "[vdso]";

class ElfSymbols {
 public:
  // The file at PATH (or the vDSO), or nullopt when it cannot be read as ELF (deleted since, not a file).
  static std::optional<ElfSymbols> load(const std::string& path);

  // The difference between the addresses of a process that mapped file offset PAGE_OFFSET at START and
  // the file's own virtual addresses.
  uint64_t loadBias(uint64_t start, uint64_t pageOffset) const;
  // The function containing file address ADDRESS (the symbol's name, mangled), or nullptr.
  const std::string* functionAt(uint64_t address) const;
  // The file address of the data or function symbol NAME, or nullopt.
  std::optional<uint64_t> addressOf(std::string_view name) const;

 private:
  static std::optional<ElfSymbols> loadVdso();
  static std::optional<ElfSymbols> read(::Elf* elf);
  // Adds the functions and objects of ELF's symbol table of TYPE (SHT_SYMTAB, SHT_DYNSYM); false when it
  // has none, or none with a name and an address.
  bool addTable(::Elf* elf, uint32_t type);

  struct Symbol {
    uint64_t start, size;
    std::string name;
  };
  struct Segment {
    uint64_t offset, vaddr, fileSize;
  };
  std::vector<Symbol> functions_;  // by start
  std::unordered_map<std::string, uint64_t> objects_;
  std::vector<Segment> segments_;
  bool positionIndependent_ = false;
};

// Each file once, for the whole naming pass.
class ElfSymbolCache {
 public:
  const ElfSymbols* get(const std::string& path);

 private:
  std::unordered_map<std::string, std::unique_ptr<ElfSymbols>> files_;
};

// The human name of a mangled C++ symbol, the symbol itself otherwise.
std::string demangledSymbol(const std::string& symbol);

}  // namespace gpuscope::sampling
