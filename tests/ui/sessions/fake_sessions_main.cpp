// fake_sessions: three sessions that answer as `gpuscope launch --session` would, with no program behind them,
// until SIGINT or SIGTERM, for looking at the Sessions window by hand (docs/screenshots/issue42/README.md).
// Usage: fake_sessions FILES_DIR [TRACE]: the files they "write" are named in FILES_DIR, and are copies of TRACE
// when it is given, so that the viewer can open them. $GPUSCOPE_CONTROL_DIR picks the control directory.
#include <csignal>
#include <cstdio>
#include <exception>
#include <memory>
#include <vector>

#include "tests/ui/sessions/fake_session.h"

using gpuscope::control::SessionState;
using gpuscope::ui::test::FakeSession;
using gpuscope::ui::test::sessionStatus;

namespace {

std::vector<std::unique_ptr<FakeSession>> startSessions(const std::string& filesDir) {
  std::vector<std::unique_ptr<FakeSession>> sessions;
  sessions.push_back(std::make_unique<FakeSession>(
      sessionStatus("train.rank0", SessionState::Launched, "python train.py --epochs 3 --batch-size 256"), filesDir));
  auto rank1 = sessionStatus("train.rank1", SessionState::Recording, "python train.py --epochs 3 --batch-size 256");
  rank1.pid = 4243;
  rank1.events = 183'402;
  rank1.files = {filesDir + "/train.rank1.1.sqlite"};
  sessions.push_back(std::make_unique<FakeSession>(rank1, filesDir));
  sessions.back()->runRecordingClock();
  auto serve = sessionStatus("serve", SessionState::Launched, "./llm_server --port 8080 --model llama-3-8b");
  serve.pid = 5120;
  serve.events = 52'113;
  serve.flightRecorder = true;
  sessions.push_back(std::make_unique<FakeSession>(serve, filesDir));
  return sessions;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: fake_sessions FILES_DIR [TRACE]\n");
    return 2;
  }
  sigset_t stopSignals;
  sigemptyset(&stopSignals);
  sigaddset(&stopSignals, SIGINT);
  sigaddset(&stopSignals, SIGTERM);
  // Blocked before the servers' threads start, so that sigwait below receives them and the sockets are removed.
  pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);
  try {
    auto sessions = startSessions(argv[1]);
    if (argc == 3)
      for (auto& session : sessions) session->copyTraceOnWrite(argv[2]);
    std::printf("fake_sessions: %zu sessions answering\n", sessions.size());
    std::fflush(stdout);
    int received = 0;
    sigwait(&stopSignals, &received);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "fake_sessions: %s\n", error.what());
    return 1;
  }
  return 0;
}
