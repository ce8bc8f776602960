// The one OS-runtime list (collector/transport/osrt_functions.h) drives the interposer: the
// injection library defines a wrapper for every listed function and for no other libc function
// but the few it needs for other reasons, and a recording holds the listed calls and none of the
// ones nsys leaves out.
#include <dlfcn.h>
#include <elf.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "collector/transport/osrt_functions.h"
#include "tests/collector/record_test_support.h"

namespace gpuscope::test {
namespace {

#define GPUSCOPE_OSRT_STRING(name) #name,
const std::vector<std::string> kListed = {GPUSCOPE_OSRT_FUNCTIONS(GPUSCOPE_OSRT_STRING)};
const std::vector<std::string> kLeftOut = {GPUSCOPE_OSRT_LEFT_OUT(GPUSCOPE_OSRT_STRING)};
#undef GPUSCOPE_OSRT_STRING

// libc functions the library defines for other reasons than timing them: following the program
// (the exec family is listed, posix_spawn is not timed), thread names, the last CUDA flush.
const std::set<std::string> kWrappedUntimed = {"_exit", "_Exit", "posix_spawn", "posix_spawnp", "pthread_setname_np"};

// The functions an ELF shared object defines and exports (its .dynsym).
std::vector<std::string> exportedFunctions(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (bytes.size() < sizeof(Elf64_Ehdr)) return {};
  const auto* header = reinterpret_cast<const Elf64_Ehdr*>(bytes.data());
  const auto* sections = reinterpret_cast<const Elf64_Shdr*>(bytes.data() + header->e_shoff);
  std::vector<std::string> names;
  for (int i = 0; i < header->e_shnum; ++i) {
    if (sections[i].sh_type != SHT_DYNSYM) continue;
    const char* strings = bytes.data() + sections[sections[i].sh_link].sh_offset;
    const auto* symbols = reinterpret_cast<const Elf64_Sym*>(bytes.data() + sections[i].sh_offset);
    size_t count = sections[i].sh_size / sizeof(Elf64_Sym);
    for (size_t s = 0; s < count; ++s) {
      bool defined = symbols[s].st_shndx != SHN_UNDEF;
      if (defined && ELF64_ST_TYPE(symbols[s].st_info) == STT_FUNC) names.emplace_back(strings + symbols[s].st_name);
    }
  }
  return names;
}

TEST(OsRuntimeList, TheInjectionLibraryWrapsExactlyTheListedFunctions) {
  std::vector<std::string> exported = exportedFunctions(GPUSCOPE_INJECT_LIB);
  ASSERT_FALSE(exported.empty()) << GPUSCOPE_INJECT_LIB;
  std::set<std::string> defined(exported.begin(), exported.end());
  for (const std::string& name : kListed) EXPECT_TRUE(defined.count(name)) << name << " is listed but not wrapped";
  for (const std::string& name : kLeftOut) EXPECT_FALSE(defined.count(name)) << name << " is left out but wrapped";
  void* libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
  ASSERT_NE(libc, nullptr);
  std::set<std::string> listed(kListed.begin(), kListed.end());
  for (const std::string& name : exported) {
    if (!dlsym(libc, name.c_str()) || listed.count(name) || kWrappedUntimed.count(name)) continue;
    ADD_FAILURE() << name << " is a libc function the library wraps, but it is not in the OS-runtime list";
  }
  dlclose(libc);
}

TEST(OsRuntimeList, ARecordingHoldsTheListedCallsAndNotTheOthers) {
  TempDir dir;
  std::string trace = dir.file("calls.sqlite");
  RunResult result = runGpuscope(
      {"record", "-t", "osrt", "--osrt-threshold", "0", "-o", trace, "--", OSRT_CALLS, dir.file("scratch")});
  ASSERT_EQ(result.status, 0) << result.errorOutput;
  std::set<std::string> recorded;
  for (const TimedRow& row : osRuntimeRows(trace)) recorded.insert(row.name);
  for (const char* name : {"stat", "lstat", "fstat", "fstatat", "fcntl", "posix_fallocate", "pipe2", "sigaction",
                           "getc", "pthread_mutex_trylock"}) {
    EXPECT_TRUE(recorded.count(name)) << name;
  }
  for (const std::string& name : kLeftOut) EXPECT_FALSE(recorded.count(name)) << name;
}

// Calls from code named as gpuscope's own (the CUDA injection names CUPTI's library and itself), and
// everything a thread started from there does, are left out, as nsys leaves its own out.
TEST(OsRuntimeList, CallsAndThreadsOfGpuscopesOwnCodeAreLeftOut) {
  TempDir dir;
  std::string trace = dir.file("own.sqlite");
  RunResult result = runGpuscope({"record", "-t", "osrt", "-o", trace, "--", OWN_CODE});
  ASSERT_EQ(result.status, 0) << result.errorOutput;
  std::vector<TimedRow> sleeps;
  int creates = 0;
  for (const TimedRow& row : osRuntimeRows(trace)) {
    if (row.name == "usleep") sleeps.push_back(row);
    if (row.name == "pthread_create") ++creates;
  }
  // The thread's and the main thread's sleeps before the executable was named; none after.
  ASSERT_EQ(sleeps.size(), 2u);
  EXPECT_NE(sleeps[0].tid, sleeps[1].tid);
  EXPECT_EQ(creates, 1);
}

}  // namespace
}  // namespace gpuscope::test
