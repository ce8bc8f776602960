// A control channel client for tests that run it as another user (setpriv): sends one request and says,
// by its exit status, what became of it: 0 refused as another user's, 1 answered, 2 the session could not
// be reached, 3 wrong arguments. It prints the reply's error or message, or why it could not reach it.
//
// usage: control_client_probe SOCKET VERB [OUTPUT]
#include <cstdio>
#include <string>

#include "collector/control/control_channel.h"
#include "core/error.h"

int main(int argc, char** argv) {
  using namespace gpuscope::control;
  if (argc < 3 || argc > 4) {
    std::fprintf(stderr, "usage: control_client_probe SOCKET VERB [OUTPUT]\n");
    return 3;
  }
  std::optional<Verb> verb = verbFromName(argv[2]);
  if (!verb) {
    std::fprintf(stderr, "control_client_probe: unknown verb %s\n", argv[2]);
    return 3;
  }
  Request request{*verb, argc == 4 ? argv[3] : ""};
  try {
    Reply reply = sendRequest(argv[1], request, std::chrono::seconds(10));
    std::printf("%s\n", reply.ok ? reply.message.c_str() : reply.error.c_str());
    bool refusedAsStranger = !reply.ok && reply.error.rfind("refused:", 0) == 0;
    return refusedAsStranger ? 0 : 1;
  } catch (const gpuscope::TraceError& error) {
    std::printf("%s\n", error.what());
    return 2;
  }
}
