#include "collector/transport/ring_reader.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace gpuscope::transport {

std::unique_ptr<RingFileReader> RingFileReader::open(const std::string& path, std::string* error) {
  auto fail = [&](const std::string& why) -> std::unique_ptr<RingFileReader> {
    if (error) *error = path + ": " + why;
    return nullptr;
  };
  int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return fail(std::strerror(errno));
  struct stat info {};
  if (fstat(fd, &info) != 0 || static_cast<uint64_t>(info.st_size) < sizeof(RingFileHeader)) {
    ::close(fd);
    return fail("too small to be a ring file");
  }
  RingFileHeader header{};
  if (pread(fd, &header, sizeof header, 0) != static_cast<ssize_t>(sizeof header)) {
    ::close(fd);
    return fail("unreadable header");
  }
  bool powerOfTwo = header.ringBytes >= 4096 && header.ringBytes <= (uint64_t{1} << 30) &&
                    (header.ringBytes & (header.ringBytes - 1)) == 0;
  if (header.magic != kRingFileMagic || header.version != kRingFormatVersion || header.ringCount == 0 ||
      header.ringCount > 1024 || !powerOfTwo || header.dataOffset != dataOffsetFor(header.ringCount) ||
      static_cast<uint64_t>(info.st_size) < ringFileBytes(header.ringCount, header.ringBytes)) {
    ::close(fd);
    return fail("not a gpuscope ring file of this version");
  }
  uint64_t bytes = ringFileBytes(header.ringCount, header.ringBytes);
  void* mapped = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ::close(fd);
  if (mapped == MAP_FAILED) return fail(std::string("cannot map: ") + std::strerror(errno));

  std::unique_ptr<RingFileReader> reader(new RingFileReader());
  reader->path_ = path;
  reader->base_ = static_cast<uint8_t*>(mapped);
  reader->mappedBytes_ = bytes;
  reader->header_ = reinterpret_cast<const RingFileHeader*>(reader->base_);
  reader->controls_ = reinterpret_cast<RingControl*>(reader->base_ + controlOffset(0));
  reader->data_ = reader->base_ + header.dataOffset;
  reader->ringCount_ = header.ringCount;
  reader->ringBytes_ = header.ringBytes;
  reader->pid_ = header.pid;
  reader->ppid_ = header.ppid;
  reader->procStartTicks_ = header.procStartTicks;
  reader->sequence_ = header.sequence;
  return reader;
}

RingFileReader::~RingFileReader() {
  if (base_) munmap(base_, mappedBytes_);
}

ProcessState RingFileReader::state() const {
  return static_cast<ProcessState>(header_->state.load(std::memory_order_acquire));
}

uint64_t RingFileReader::gateAck() const { return header_->gateAck.load(std::memory_order_acquire); }

CudaState RingFileReader::cudaState() const {
  uint32_t value = header_->cudaState.load(std::memory_order_acquire);
  return value <= static_cast<uint32_t>(CudaState::CuptiFailed) ? static_cast<CudaState>(value) : CudaState::NotLoaded;
}

uint64_t RingFileReader::head(uint32_t ring) const {
  return ring < ringCount_ ? controls_[ring].head.load(std::memory_order_acquire) : 0;
}

uint64_t RingFileReader::dropped() const {
  uint64_t total = header_->lostBeforeInit.load(std::memory_order_relaxed);
  for (uint32_t ring = 0; ring < ringCount_; ++ring) total += controls_[ring].dropped.load(std::memory_order_relaxed);
  return total;
}

bool RingFileReader::next(uint32_t ring, uint64_t& position, uint64_t limit, RecordView& view) {
  if (position >= limit) return false;
  uint64_t available = limit - position;
  // A head that ran more than a ring ahead of the tail is damage, not data.
  if (available > ringBytes_) {
    ++corrupt_;
    position = limit;
    return false;
  }
  uint64_t offset = position & (ringBytes_ - 1);
  const uint8_t* data = data_ + uint64_t{ring} * ringBytes_;
  RecordHeader header{};
  uint64_t room = ringBytes_ - offset;
  if (room < sizeof header) {
    // The writer's implicit padding: too little room before the end for a header (ring_format.h).
    if (available < room || room % kRecordAlign != 0) {
      ++corrupt_;
      position = limit;
      return false;
    }
    view = RecordView{RecordType::Padding, 0, 0, nullptr, 0};
    position += room;
    return true;
  }
  if (available < sizeof header) {
    ++corrupt_;
    position = limit;
    return false;
  }
  std::memcpy(&header, data + offset, sizeof header);
  uint64_t size = header.sizeBytes;
  bool sane = size >= sizeof header && size % kRecordAlign == 0 && size <= available && offset + size <= ringBytes_ &&
              header.type < static_cast<uint16_t>(RecordType::Count);
  if (!sane) {
    ++corrupt_;
    position = limit;
    return false;
  }
  view.type = static_cast<RecordType>(header.type);
  view.aux = header.aux;
  view.tid = header.tid;
  view.body = data + offset + sizeof header;
  view.bodyBytes = static_cast<uint32_t>(size - sizeof header);
  position += size;
  return true;
}

void RingFileReader::release(uint32_t ring, uint64_t position) {
  controls_[ring].tail.store(position, std::memory_order_release);
}

}  // namespace gpuscope::transport
