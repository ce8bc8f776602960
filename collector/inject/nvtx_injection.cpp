// The NVTX injection: NVTX (v2 library or header-only v3) loads the library named by
// NVTX_INJECTION64_PATH and calls InitializeInjectionNvtx2, where we point NVTX's function table at
// the handlers below. Push/pop and start/end ranges, marks, domains, registered strings, category
// and thread names become ring records; the daemon pairs ranges and writes NVTX_EVENTS.
#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

#include <atomic>
#include <cstring>
#include <cwchar>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "collector/inject/recorder_internal.h"
#include "collector/inject/tick_clock.h"

// The opaque handle types NVTX leaves to the tool.
struct nvtxDomainRegistration_st {
  uint64_t id;
  std::string name;
};
struct nvtxStringRegistration_st {
  uint64_t id;
  uint64_t domain;
  std::string text;
};
struct nvtxResourceHandle {
  uint64_t id;
};

namespace gpuscope::inject {
namespace {

using transport::NvtxEventBody;
using transport::NvtxPayload;
using transport::NvtxText;
using transport::RecordType;

// Handles live as long as the process (NVTX never gives them back in a way we could trust).
struct Registry {
  std::mutex lock;
  std::vector<nvtxDomainRegistration_st*> domains;
  std::vector<nvtxStringRegistration_st*> strings;
};

Registry& registry() {
  static Registry* instance = new Registry();
  return *instance;
}

nvtxResourceHandle g_resource{0};

ProcessRecorder* nvtxRecorder() {
  ProcessRecorder* recorder = ProcessRecorder::get();
  return recorder && recorder->config().traceNvtx ? recorder : nullptr;
}

uint64_t domainId(nvtxDomainHandle_t domain) { return domain ? domain->id : 0; }

// UTF-32 (wchar_t on Linux) to UTF-8, cut at the buffer's end.
std::string_view toUtf8(const wchar_t* text, char* buffer, size_t capacity) {
  size_t at = 0;
  if (!text) return {};
  for (; *text; ++text) {
    auto code = static_cast<uint32_t>(*text);
    char bytes[4];
    size_t length;
    if (code < 0x80) {
      bytes[0] = static_cast<char>(code);
      length = 1;
    } else if (code < 0x800) {
      bytes[0] = static_cast<char>(0xC0 | (code >> 6));
      bytes[1] = static_cast<char>(0x80 | (code & 0x3F));
      length = 2;
    } else if (code < 0x10000) {
      bytes[0] = static_cast<char>(0xE0 | (code >> 12));
      bytes[1] = static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      bytes[2] = static_cast<char>(0x80 | (code & 0x3F));
      length = 3;
    } else {
      code = code > 0x10FFFF ? 0xFFFD : code;
      bytes[0] = static_cast<char>(0xF0 | (code >> 18));
      bytes[1] = static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      bytes[2] = static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      bytes[3] = static_cast<char>(0x80 | (code & 0x3F));
      length = 4;
    }
    if (at + length > capacity) break;
    std::memcpy(buffer + at, bytes, length);
    at += length;
  }
  return {buffer, at};
}

std::string_view asciiText(const char* text) {
  return text ? std::string_view(text, strnlen(text, transport::kMaxTextBytes)) : std::string_view{};
}

// An event's attributes in record form; the text either points at the caller's string or at WIDE.
struct Event {
  NvtxEventBody body{};
  std::string_view text;
  char wide[1024];

  Event(uint64_t domain, int64_t time) {
    body.time = time;
    body.domain = domain;
  }

  void setText(std::string_view value) {
    text = value;
    body.text = static_cast<uint8_t>(NvtxText::Inline);
    body.textLength = static_cast<uint32_t>(value.size());
  }

  void read(const nvtxEventAttributes_t* attributes) {
    // Version 1 and 2 attributes share this layout; anything smaller is ignored.
    if (!attributes || attributes->size < sizeof(nvtxEventAttributes_t)) return;
    body.category = attributes->category;
    if (attributes->colorType == NVTX_COLOR_ARGB) {
      body.hasColor = 1;
      body.color = attributes->color;
    }
    switch (attributes->payloadType) {
      case NVTX_PAYLOAD_TYPE_UNSIGNED_INT64:
        body.payloadType = static_cast<uint8_t>(NvtxPayload::Uint64);
        body.payload = attributes->payload.ullValue;
        break;
      case NVTX_PAYLOAD_TYPE_INT64:
        body.payloadType = static_cast<uint8_t>(NvtxPayload::Int64);
        body.payload = static_cast<uint64_t>(attributes->payload.llValue);
        break;
      case NVTX_PAYLOAD_TYPE_DOUBLE:
        body.payloadType = static_cast<uint8_t>(NvtxPayload::Double);
        std::memcpy(&body.payload, &attributes->payload.dValue, sizeof(double));
        break;
      case NVTX_PAYLOAD_TYPE_UNSIGNED_INT32:
        body.payloadType = static_cast<uint8_t>(NvtxPayload::Uint32);
        body.payload = attributes->payload.uiValue;
        break;
      case NVTX_PAYLOAD_TYPE_INT32:
        body.payloadType = static_cast<uint8_t>(NvtxPayload::Int32);
        body.payload = static_cast<uint64_t>(static_cast<int64_t>(attributes->payload.iValue));
        break;
      case NVTX_PAYLOAD_TYPE_FLOAT: {
        body.payloadType = static_cast<uint8_t>(NvtxPayload::Float);
        uint32_t bits;
        std::memcpy(&bits, &attributes->payload.fValue, sizeof bits);
        body.payload = bits;
        break;
      }
      default:
        break;
    }
    switch (attributes->messageType) {
      case NVTX_MESSAGE_TYPE_ASCII:
        setText(asciiText(attributes->message.ascii));
        break;
      case NVTX_MESSAGE_TYPE_UNICODE:
        setText(toUtf8(attributes->message.unicode, wide, sizeof wide));
        break;
      case NVTX_MESSAGE_TYPE_REGISTERED:
        if (attributes->message.registered) {
          body.text = static_cast<uint8_t>(NvtxText::Registered);
          body.registeredText = attributes->message.registered->id;
        }
        break;
      default:
        break;
    }
  }

  void emit(ProcessRecorder& recorder, RecordType type) {
    recorder.emit(type, 0, &body, sizeof body, {body.text == static_cast<uint8_t>(NvtxText::Inline) ? text : ""});
  }
};

// ---- capture ranges (record --capture-range nvtx --nvtx-capture NAME[@DOMAIN]) ----

// A start/end range id handed out while the gate was closed: its end is not recorded either.
constexpr uint64_t kUnkeptRangeBit = uint64_t{1} << 63;
// The start/end range that opened the capture range, or 0.
std::atomic<uint64_t> g_captureRangeId{0};

// The name of domain DOMAIN as the program created it ("" for the default domain).
bool domainMatches(uint64_t domain, const char* wanted) {
  if (std::strcmp(wanted, "*") == 0) return true;
  if (domain == 0) return *wanted == '\0';
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.lock);
  for (const nvtxDomainRegistration_st* entry : r.domains)
    if (entry->id == domain) return entry->name == wanted;
  return false;
}

// EVENT is the range --nvtx-capture names: its message, plain or registered (nsys matches registered
// strings only unless NSYS_NVTX_PROFILER_REGISTER_ONLY=0; gpuscope matches both), in the named domain.
bool namesCaptureRange(const NvtxEventBody& body, std::string_view inlineText) {
  const transport::SessionGate& gate = *g_gate;
  std::string_view text = inlineText;
  std::string registered;
  if (body.text == static_cast<uint8_t>(NvtxText::Registered)) {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.lock);
    for (const nvtxStringRegistration_st* entry : r.strings)
      if (entry->id == body.registeredText) registered = entry->text;
    text = registered;
  } else if (body.text != static_cast<uint8_t>(NvtxText::Inline)) {
    return false;
  }
  return text == gate.nvtxName && domainMatches(body.domain, gate.nvtxDomain);
}

bool capturesByNvtx() { return capturesBy(transport::CaptureTrigger::Nvtx); }

// ---- ranges and marks ----

// The event of a push, mark or start takes its attributes or TEXT. (Filled in place: a wide message's text
// points into the event's own buffer.)
void fill(Event& event, const nvtxEventAttributes_t* attributes, std::string_view text) {
  if (attributes) {
    event.read(attributes);
  } else {
    event.setText(text);
  }
}

void notePushKept(ThreadState& thread, int32_t depth, bool kept) {
  if (depth < 0 || depth >= 64) return;
  uint64_t bit = uint64_t{1} << depth;
  thread.pushesKept = kept ? (thread.pushesKept | bit) : (thread.pushesKept & ~bit);
}

// Whether the push at DEPTH was recorded (deeper than 64: as the gate is now).
bool pushWasKept(const ThreadState& thread, int32_t depth) {
  if (depth < 0 || depth >= 64) return gateOpen();
  return (thread.pushesKept >> depth) & 1;
}

int pushRange(uint64_t domain, const nvtxEventAttributes_t* attributes, std::string_view text) {
  ProcessRecorder* recorder = nvtxRecorder();
  if (!recorder) return -1;
  ThreadState& thread = t_threadState;
  int32_t depth = thread.nvtxDepth;
  bool capturing = capturesByNvtx();
  if (gateOpen() || capturing) {
    Event event(domain, TickClock::now());
    fill(event, attributes, text);
    if (capturing && namesCaptureRange(event.body, event.text) && beginCaptureRange(transport::CaptureTrigger::Nvtx)) {
      thread.captureDepth = static_cast<uint32_t>(depth) + 1;
      event.body.time = TickClock::now();  // inside the window it just opened
    }
    bool kept = gateOpen();
    if (kept) event.emit(*recorder, RecordType::NvtxPush);
    notePushKept(thread, depth, kept);
  } else {
    notePushKept(thread, depth, false);
  }
  return thread.nvtxDepth++;
}

int popRange(uint64_t domain) {
  ProcessRecorder* recorder = nvtxRecorder();
  if (!recorder) return -1;
  ThreadState& thread = t_threadState;
  int32_t depth = thread.nvtxDepth - 1;
  // A pop whose push was recorded is recorded too, even after the gate closed, so ranges pair.
  if (depth < 0 ? gateOpen() : pushWasKept(thread, depth)) {
    transport::NvtxPopBody body{TickClock::now(), domain};
    recorder->emit(RecordType::NvtxPop, 0, &body, sizeof body);
  }
  if (depth < 0) return -1;
  thread.nvtxDepth = depth;
  if (thread.captureDepth == static_cast<uint32_t>(depth) + 1) {
    thread.captureDepth = 0;
    endCaptureRange(transport::CaptureTrigger::Nvtx);
  }
  return depth;
}

void mark(uint64_t domain, const nvtxEventAttributes_t* attributes, std::string_view text) {
  ProcessRecorder* recorder = nvtxRecorder();
  if (!recorder || !gateOpen()) return;
  Event event(domain, TickClock::now());
  fill(event, attributes, text);
  event.emit(*recorder, RecordType::NvtxMark);
}

nvtxRangeId_t startRange(uint64_t domain, const nvtxEventAttributes_t* attributes, std::string_view text) {
  ProcessRecorder* recorder = nvtxRecorder();
  if (!recorder) return 0;
  bool capturing = capturesByNvtx();
  if (!gateOpen() && !capturing) return recorder->nextId() | kUnkeptRangeBit;
  Event event(domain, TickClock::now());
  fill(event, attributes, text);
  event.body.rangeId = recorder->nextId();
  if (capturing && namesCaptureRange(event.body, event.text) && beginCaptureRange(transport::CaptureTrigger::Nvtx)) {
    g_captureRangeId.store(event.body.rangeId, std::memory_order_release);
    event.body.time = TickClock::now();  // inside the window it just opened
  }
  if (!gateOpen()) return event.body.rangeId | kUnkeptRangeBit;
  event.emit(*recorder, RecordType::NvtxRangeStart);
  return event.body.rangeId;
}

void endRange(nvtxRangeId_t id) {
  ProcessRecorder* recorder = nvtxRecorder();
  if (!recorder || id == 0) return;
  uint64_t captureId = id & ~kUnkeptRangeBit;
  if (!(id & kUnkeptRangeBit)) {
    transport::NvtxRangeEndBody body{TickClock::now(), id};
    recorder->emit(RecordType::NvtxRangeEnd, 0, &body, sizeof body);
  }
  uint64_t expected = captureId;
  if (g_captureRangeId.compare_exchange_strong(expected, 0, std::memory_order_acq_rel))
    endCaptureRange(transport::CaptureTrigger::Nvtx);
}

void NVTX_API markEx(const nvtxEventAttributes_t* attributes) { mark(0, attributes, {}); }
void NVTX_API markA(const char* message) { mark(0, nullptr, asciiText(message)); }
void NVTX_API markW(const wchar_t* message) {
  char buffer[1024];
  mark(0, nullptr, toUtf8(message, buffer, sizeof buffer));
}
nvtxRangeId_t NVTX_API rangeStartEx(const nvtxEventAttributes_t* attributes) { return startRange(0, attributes, {}); }
nvtxRangeId_t NVTX_API rangeStartA(const char* message) { return startRange(0, nullptr, asciiText(message)); }
nvtxRangeId_t NVTX_API rangeStartW(const wchar_t* message) {
  char buffer[1024];
  return startRange(0, nullptr, toUtf8(message, buffer, sizeof buffer));
}
void NVTX_API rangeEnd(nvtxRangeId_t id) { endRange(id); }
int NVTX_API rangePushEx(const nvtxEventAttributes_t* attributes) { return pushRange(0, attributes, {}); }
int NVTX_API rangePushA(const char* message) { return pushRange(0, nullptr, asciiText(message)); }
int NVTX_API rangePushW(const wchar_t* message) {
  char buffer[1024];
  return pushRange(0, nullptr, toUtf8(message, buffer, sizeof buffer));
}
int NVTX_API rangePop() { return popRange(0); }

// ---- names ----

void nameCategory(uint64_t domain, uint32_t category, std::string_view name) {
  ProcessRecorder* recorder = nvtxRecorder();
  if (!recorder) return;
  transport::NvtxCategoryBody body{domain, category, static_cast<uint32_t>(name.size())};
  recorder->define(RecordType::NvtxCategory, &body, sizeof body, name);
}

void nameThread(uint32_t tid, std::string_view name) {
  ProcessRecorder* recorder = nvtxRecorder();
  if (!recorder || tid == 0) return;
  transport::ThreadNameBody body{static_cast<uint32_t>(transport::ThreadNameSource::Nvtx),
                                 static_cast<uint32_t>(name.size())};
  recorder->emit(RecordType::ThreadName, 0, &body, sizeof body, {name}, tid);
}

void NVTX_API nameCategoryA(uint32_t category, const char* name) { nameCategory(0, category, asciiText(name)); }
void NVTX_API nameCategoryW(uint32_t category, const wchar_t* name) {
  char buffer[1024];
  nameCategory(0, category, toUtf8(name, buffer, sizeof buffer));
}
void NVTX_API nameOsThreadA(uint32_t tid, const char* name) { nameThread(tid, asciiText(name)); }
void NVTX_API nameOsThreadW(uint32_t tid, const wchar_t* name) {
  char buffer[1024];
  nameThread(tid, toUtf8(name, buffer, sizeof buffer));
}

// ---- domains ----

nvtxDomainHandle_t createDomain(std::string_view name) {
  ProcessRecorder* recorder = nvtxRecorder();
  if (!recorder) return nullptr;
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.lock);
  for (nvtxDomainRegistration_st* domain : r.domains) {
    if (domain->name == name) return domain;
  }
  auto* domain = new nvtxDomainRegistration_st{recorder->nextId(), std::string(name)};
  r.domains.push_back(domain);
  transport::NvtxDomainBody body{TickClock::now(), domain->id, static_cast<uint32_t>(name.size()), 0};
  recorder->define(RecordType::NvtxDomain, &body, sizeof body, name);
  return domain;
}

nvtxStringHandle_t registerString(nvtxDomainHandle_t domain, std::string_view text) {
  ProcessRecorder* recorder = nvtxRecorder();
  if (!recorder) return nullptr;
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.lock);
  uint64_t domainKey = domainId(domain);
  for (nvtxStringRegistration_st* string : r.strings) {
    if (string->domain == domainKey && string->text == text) return string;
  }
  auto* string = new nvtxStringRegistration_st{recorder->nextId(), domainKey, std::string(text)};
  r.strings.push_back(string);
  transport::NvtxStringBody body{string->id, domainKey, static_cast<uint32_t>(text.size()), 0};
  recorder->define(RecordType::NvtxString, &body, sizeof body, text);
  return string;
}

void NVTX_API domainMarkEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes) {
  mark(domainId(domain), attributes, {});
}
nvtxRangeId_t NVTX_API domainRangeStartEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes) {
  return startRange(domainId(domain), attributes, {});
}
void NVTX_API domainRangeEnd(nvtxDomainHandle_t, nvtxRangeId_t id) { endRange(id); }
int NVTX_API domainRangePushEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes) {
  return pushRange(domainId(domain), attributes, {});
}
int NVTX_API domainRangePop(nvtxDomainHandle_t domain) { return popRange(domainId(domain)); }
nvtxResourceHandle_t NVTX_API domainResourceCreate(nvtxDomainHandle_t, nvtxResourceAttributes_t*) {
  return &g_resource;
}
void NVTX_API domainResourceDestroy(nvtxResourceHandle_t) {}
void NVTX_API domainNameCategoryA(nvtxDomainHandle_t domain, uint32_t category, const char* name) {
  nameCategory(domainId(domain), category, asciiText(name));
}
void NVTX_API domainNameCategoryW(nvtxDomainHandle_t domain, uint32_t category, const wchar_t* name) {
  char buffer[1024];
  nameCategory(domainId(domain), category, toUtf8(name, buffer, sizeof buffer));
}
nvtxStringHandle_t NVTX_API domainRegisterStringA(nvtxDomainHandle_t domain, const char* text) {
  return registerString(domain, asciiText(text));
}
nvtxStringHandle_t NVTX_API domainRegisterStringW(nvtxDomainHandle_t domain, const wchar_t* text) {
  char buffer[1024];
  return registerString(domain, toUtf8(text, buffer, sizeof buffer));
}
nvtxDomainHandle_t NVTX_API domainCreateA(const char* name) { return createDomain(asciiText(name)); }
nvtxDomainHandle_t NVTX_API domainCreateW(const wchar_t* name) {
  char buffer[1024];
  return createDomain(toUtf8(name, buffer, sizeof buffer));
}
void NVTX_API domainDestroy(nvtxDomainHandle_t) {}
void NVTX_API initialize(const void*) {}

template <typename Function>
NvtxFunctionPointer asEntry(Function function) {
  return reinterpret_cast<NvtxFunctionPointer>(function);
}

// Points the module's table entries at our handlers; ids the library does not know are skipped.
bool install(const NvtxExportTableCallbacks& callbacks, NvtxCallbackModule module,
             std::initializer_list<std::pair<unsigned, NvtxFunctionPointer>> entries) {
  NvtxFunctionTable table = nullptr;
  unsigned size = 0;
  if (!callbacks.GetModuleFunctionTable(module, &table, &size) || !table) return false;
  for (const auto& [id, function] : entries) {
    if (id < size && table[id]) *table[id] = function;
  }
  return true;
}

}  // namespace
}  // namespace gpuscope::inject

extern "C" GPUSCOPE_EXPORT int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t getExportTable) {
  using namespace gpuscope::inject;
  if (!nvtxRecorder() || !getExportTable) return 0;
  const auto* callbacks = static_cast<const NvtxExportTableCallbacks*>(getExportTable(NVTX_ETID_CALLBACKS));
  if (!callbacks || callbacks->struct_size < sizeof(NvtxExportTableCallbacks) || !callbacks->GetModuleFunctionTable) {
    return 0;
  }
  const auto* version = static_cast<const NvtxExportTableVersionInfo*>(getExportTable(NVTX_ETID_VERSIONINFO));
  if (version && version->struct_size >= sizeof(NvtxExportTableVersionInfo) && version->SetInjectionNvtxVersion) {
    version->SetInjectionNvtxVersion(NVTX_VERSION);
  }
  bool core = install(*callbacks, NVTX_CB_MODULE_CORE,
                      {{NVTX_CBID_CORE_MarkEx, asEntry(markEx)},
                       {NVTX_CBID_CORE_MarkA, asEntry(markA)},
                       {NVTX_CBID_CORE_MarkW, asEntry(markW)},
                       {NVTX_CBID_CORE_RangeStartEx, asEntry(rangeStartEx)},
                       {NVTX_CBID_CORE_RangeStartA, asEntry(rangeStartA)},
                       {NVTX_CBID_CORE_RangeStartW, asEntry(rangeStartW)},
                       {NVTX_CBID_CORE_RangeEnd, asEntry(rangeEnd)},
                       {NVTX_CBID_CORE_RangePushEx, asEntry(rangePushEx)},
                       {NVTX_CBID_CORE_RangePushA, asEntry(rangePushA)},
                       {NVTX_CBID_CORE_RangePushW, asEntry(rangePushW)},
                       {NVTX_CBID_CORE_RangePop, asEntry(rangePop)},
                       {NVTX_CBID_CORE_NameCategoryA, asEntry(nameCategoryA)},
                       {NVTX_CBID_CORE_NameCategoryW, asEntry(nameCategoryW)},
                       {NVTX_CBID_CORE_NameOsThreadA, asEntry(nameOsThreadA)},
                       {NVTX_CBID_CORE_NameOsThreadW, asEntry(nameOsThreadW)}});
  // Libraries older than NVTX v2 have no CORE2 module; that is fine.
  install(*callbacks, NVTX_CB_MODULE_CORE2,
          {{NVTX_CBID_CORE2_DomainMarkEx, asEntry(domainMarkEx)},
           {NVTX_CBID_CORE2_DomainRangeStartEx, asEntry(domainRangeStartEx)},
           {NVTX_CBID_CORE2_DomainRangeEnd, asEntry(domainRangeEnd)},
           {NVTX_CBID_CORE2_DomainRangePushEx, asEntry(domainRangePushEx)},
           {NVTX_CBID_CORE2_DomainRangePop, asEntry(domainRangePop)},
           {NVTX_CBID_CORE2_DomainResourceCreate, asEntry(domainResourceCreate)},
           {NVTX_CBID_CORE2_DomainResourceDestroy, asEntry(domainResourceDestroy)},
           {NVTX_CBID_CORE2_DomainNameCategoryA, asEntry(domainNameCategoryA)},
           {NVTX_CBID_CORE2_DomainNameCategoryW, asEntry(domainNameCategoryW)},
           {NVTX_CBID_CORE2_DomainRegisterStringA, asEntry(domainRegisterStringA)},
           {NVTX_CBID_CORE2_DomainRegisterStringW, asEntry(domainRegisterStringW)},
           {NVTX_CBID_CORE2_DomainCreateA, asEntry(domainCreateA)},
           {NVTX_CBID_CORE2_DomainCreateW, asEntry(domainCreateW)},
           {NVTX_CBID_CORE2_DomainDestroy, asEntry(domainDestroy)},
           {NVTX_CBID_CORE2_Initialize, asEntry(initialize)}});
  return core ? 1 : 0;
}
