#pragma once
// Fixtures kept gzip-compressed in the repository (tests/fixtures/verdict/*/*.sqlite.gz,
// tests/fixtures/classes/*/*.sqlite.gz, to keep the tracked tree small enough to travel to the GPU machine):
// decompressed once into the test temp directory, so SQLite can open them as files.
#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace gpuscope::testing {

// The decompressed copy of GZ_PATH (a path ending in ".gz"); NAME is the copy's file name. Written to a
// process-private name first and renamed, so tests running in parallel never see half a file.
inline std::string gunzippedFixture(const std::string& gzPath, const std::string& name) {
  std::string target = ::testing::TempDir() + name;
  if (std::filesystem::exists(target)) return target;
  std::string partial = target + ".part" + std::to_string(::getpid());
  gzFile in = gzopen(gzPath.c_str(), "rb");
  EXPECT_NE(in, nullptr) << gzPath;
  if (in == nullptr) return target;
  std::ofstream out(partial, std::ios::binary);
  char buffer[1 << 16];
  int read = 0;
  while ((read = gzread(in, buffer, sizeof buffer)) > 0) out.write(buffer, read);
  EXPECT_EQ(read, 0) << gzPath << " is not a whole gzip file";
  gzclose(in);
  out.close();
  std::filesystem::rename(partial, target);
  return target;
}

// tests/fixtures/verdict/PROGRAM/RECORDER.sqlite.gz, decompressed (RECORDER: "gpuscope" or "nsys").
inline std::string verdictFixture(const std::string& program, const std::string& recorder) {
  return gunzippedFixture(std::string(GPUSCOPE_FIXTURES) + "/verdict/" + program + "/" + recorder + ".sqlite.gz",
                          "verdict_" + program + "_" + recorder + ".sqlite");
}

// tests/fixtures/classes/PROGRAM/RECORDER.sqlite.gz, decompressed (RECORDER: "gpuscope" or "nsys").
inline std::string classFixture(const std::string& program, const std::string& recorder) {
  return gunzippedFixture(std::string(GPUSCOPE_FIXTURES) + "/classes/" + program + "/" + recorder + ".sqlite.gz",
                          "classes_" + program + "_" + recorder + ".sqlite");
}

}  // namespace gpuscope::testing
