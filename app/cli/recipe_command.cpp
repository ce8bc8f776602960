#include "app/cli/recipe_command.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "app/cli/output_file.h"
#include "app/cli/recipe_driver.h"
#include "core/error.h"
#include "core/open/open_trace.h"
#include "core/recipe/recipe_part.h"
#include "core/recipe/recipe_reduce.h"
#include "core/report/report_format.h"

namespace gpuscope::cli {
namespace {

namespace fs = std::filesystem;

struct RecipeOptions {
  std::string name;
  std::vector<std::string> inputs;
  std::string output;
  std::string mode = "local";
  std::string scheduler;
  int workers = 0;
  std::string workerGpuscope;
  std::string partsFile;  // recipe-reduce
  int64_t index = 0;      // recipe-part
};

bool isTraceName(const fs::path& path) {
  std::string name = path.filename().string();
  auto endsWith = [&](std::string_view tail) { return name.size() > tail.size() && name.ends_with(tail); };
  return endsWith(".sqlite") || endsWith(".json") || endsWith(".json.gz");
}

// INPUTS with each folder replaced by its trace files (*.sqlite, *.json, *.json.gz), sorted.
std::vector<std::string> inputFiles(const std::vector<std::string>& inputs) {
  std::vector<std::string> files;
  for (const auto& input : inputs) {
    std::error_code error;
    if (!fs::is_directory(input, error)) {
      if (!fs::exists(input, error)) throw TraceError("The input " + input + " does not exist.");
      files.push_back(input);
      continue;
    }
    std::vector<std::string> found;
    for (const auto& entry : fs::directory_iterator(input, error))
      if (entry.is_regular_file() && isTraceName(entry.path())) found.push_back(entry.path().string());
    if (found.empty()) throw TraceError("The folder " + input + " holds no *.sqlite, *.json or *.json.gz file.");
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

// RECIPE's part of FILE; a failure names FILE.
RecipePart partOf(const std::string& recipe, const std::string& file, int64_t index) {
  try {
    return runRecipePart(openTrace(file).connectChecked(), recipe, file, index);
  } catch (const TraceError& error) {
    std::string message = error.what();
    if (message.find(file) != std::string::npos) throw;
    throw TraceError(file + ": " + message);
  }
}

void writeResult(const std::string& recipe, std::vector<RecipePart> parts, const std::string& outputDir) {
  auto result = reduceRecipe(recipe, std::move(parts));
  std::error_code error;
  fs::create_directories(outputDir, error);
  if (error) throw TraceError("Cannot make the output folder " + outputDir + " (" + error.message() + ").");
  auto write = [&](const std::string& stem, const ReportTable& table, bool json) {
    writeOutputFile((fs::path(outputDir) / (stem + ".csv")).string(), formatCsv(table));
    if (json) writeOutputFile((fs::path(outputDir) / (stem + ".json")).string(), jsonText(reportJson(table)) + "\n");
  };
  write("stats", result.stats, true);
  write("rank_stats", result.rankStats, true);
  write("files", result.files, false);
  std::cout << "Wrote " << recipe << " of " << result.files.rows.size() << " files to " << outputDir
            << ": stats.csv/.json (all ranks), rank_stats.csv/.json (per rank), files.csv\n";
}

void runSerial(const RecipeOptions& options, const std::vector<std::string>& files) {
  std::vector<RecipePart> parts;
  for (size_t i = 0; i < files.size(); ++i) parts.push_back(partOf(options.name, files[i], static_cast<int64_t>(i)));
  writeResult(options.name, std::move(parts), options.output);
}

void checkOptions(const RecipeOptions& options) {
  requireRecipeName(options.name);
  if (options.mode == "dask-futures" && options.scheduler.empty())
    throw TraceError("--mode dask-futures joins a running Dask scheduler: give its address with --scheduler.");
  if (options.mode != "dask-futures" && !options.scheduler.empty())
    throw TraceError("--scheduler is for --mode dask-futures; --mode " + options.mode + " needs none.");
  if (options.mode == "dask-futures" && options.workers > 0)
    throw TraceError("--workers is for --mode local: a running scheduler has the workers it has.");
}

void runRecipe(const RecipeOptions& options) {
  checkOptions(options);
  auto files = inputFiles(options.inputs);
  if (options.mode == "serial") return runSerial(options, files);
  std::vector<std::string> args = {findRecipeDriver(), "--gpuscope",   selfExecutable(), "--recipe",  options.name,
                                   "--output",         options.output, "--mode",         options.mode};
  if (!options.scheduler.empty()) args.insert(args.end(), {"--scheduler", options.scheduler});
  if (options.workers > 0) args.insert(args.end(), {"--workers", std::to_string(options.workers)});
  if (!options.workerGpuscope.empty()) args.insert(args.end(), {"--worker-gpuscope", options.workerGpuscope});
  args.push_back("--");
  args.insert(args.end(), files.begin(), files.end());
  int status = runRecipeDriver(args);
  std::cout.flush();
  if (status != 0) std::exit(status);  // the driver said why on stderr
}

std::string recipeHelpFooter() {
  std::string text = "Recipes:\n";
  for (const auto& recipe : recipes()) {
    std::string name(recipe.name);
    text +=
        "  " + name + std::string(20 - std::min<size_t>(name.size(), 19), ' ') + std::string(recipe.description) + "\n";
  }
  return text +
         "\nEach file's part is computed by this gpuscope's own code on a Dask worker (`local` starts a LocalCluster "
         "of\n--workers processes on this machine; `dask-futures` joins the scheduler at --scheduler, as on Slurm or\n"
         "Kubernetes; `serial` runs in this process, without Dask), then reduced over all ranks: OUTDIR gets\n"
         "stats.csv/.json (all ranks; the same numbers as `gpuscope stats` on the files merged), rank_stats.csv/.json\n"
         "(per rank) and files.csv. Dask runs under $GPUSCOPE_PYTHON, else /usr/bin/python3. See docs/recipes.md.\n"
         "\nExamples:\n"
         "  gpuscope recipe cuda_gpu_kern_sum --input ranks/ --output out/kern --workers 8\n"
         "  gpuscope recipe nccl_sum --input ranks/*.sqlite --output out/nccl --mode dask-futures --scheduler "
         "tcp://head:8786\n";
}

void addRecipeCommand(CLI::App& app) {
  auto options = std::make_shared<RecipeOptions>();
  auto* command = app.add_subcommand(
      "recipe",
      "Run a summary (kernels, CUDA API, NVTX, OS runtime, NCCL, GPU use) over many rank files on Dask "
      "workers and reduce it over all ranks, as `nsys recipe` does.");
  command->add_option("NAME", options->name, "The recipe (listed below)")->required();
  command->add_option("-i,--input", options->inputs, "Rank files, or folders of them (*.sqlite, *.json, *.json.gz)")
      ->required();
  command->add_option("-o,--output", options->output, "The folder to write the recipe's tables into")->required();
  command
      ->add_option("--mode", options->mode,
                   "local (a Dask LocalCluster here), dask-futures (a running "
                   "scheduler) or serial (this process, no Dask)")
      ->check(CLI::IsMember({"local", "dask-futures", "serial"}))
      ->capture_default_str();
  command->add_option("--scheduler", options->scheduler, "The Dask scheduler's address, for --mode dask-futures")
      ->type_name("ADDRESS");
  command->add_option("--workers", options->workers, "Worker processes of the LocalCluster (default: Dask's choice)")
      ->check(CLI::Range(1, 4096));
  command
      ->add_option("--worker-gpuscope", options->workerGpuscope,
                   "The gpuscope the workers run (default: this one's path, else gpuscope on their PATH)")
      ->type_name("PATH");
  command->footer(recipeHelpFooter());
  command->callback([options] { runRecipe(*options); });
}

// The hidden steps: a worker's part of one file (JSON on stdout), and the reduction of the parts.
void addRecipeSteps(CLI::App& app) {
  auto options = std::make_shared<RecipeOptions>();
  auto* part = app.add_subcommand("recipe-part", "One file's part of a recipe, as JSON (run by recipe's workers)");
  part->group("");
  part->add_option("NAME", options->name)->required();
  part->add_option("FILE", options->output)->required();
  part->add_option("--index", options->index, "The file's place in the input list");
  part->callback([options] {
    auto json = partJson(partOf(options->name, options->output, options->index));
    std::cout << json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  });

  auto reduce = app.add_subcommand("recipe-reduce", "Reduce a recipe's parts (JSON lines) into its tables");
  reduce->group("");
  reduce->add_option("NAME", options->name)->required();
  reduce->add_option("--parts", options->partsFile)->required();
  reduce->add_option("-o,--output", options->output)->required();
  reduce->callback([options] {
    std::ifstream in(options->partsFile);
    if (!in) throw TraceError("Cannot read the recipe parts " + options->partsFile + ".");
    std::vector<RecipePart> parts;
    std::string line;
    for (size_t number = 1; std::getline(in, line); ++number) {
      if (line.empty()) continue;
      std::string source = options->partsFile + " line " + std::to_string(number);
      auto json = nlohmann::json::parse(line, nullptr, false);
      if (json.is_discarded()) throw TraceError(source + " is not JSON.");
      parts.push_back(partFromJson(json, source));
    }
    writeResult(options->name, std::move(parts), options->output);
  });
}

}  // namespace

void registerRecipeCommands(CLI::App& app) {
  addRecipeCommand(app);
  addRecipeSteps(app);
}

}  // namespace gpuscope::cli
