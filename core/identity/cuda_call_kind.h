#pragma once
// Which CUDA API calls make the host thread wait for the GPU: the verdict counts the time a thread
// spends in them as synchronization, and the rest of its CUDA API time as API overhead.
#include <cstdint>
#include <string_view>

namespace gpuscope {

// True for cudaDeviceSynchronize, cudaStreamSynchronize, cudaEventSynchronize and their driver
// counterparts (cuCtxSynchronize, cuStreamSynchronize, cuEventSynchronize), and for the synchronous
// memory calls that return only when the GPU is done: cudaMemcpy* and cudaMemset* without "Async"
// (cuMemcpy*, cuMemset* likewise). NAME may carry nsys's version tag ("cudaMemcpy_v3020").
bool isSynchronizingCall(std::string_view name);
// True for the synchronous copies and memsets among those: cudaMemcpy*, cudaMemset*, cuMemcpy*, cuMemset*
// without "Async". The host thread is blocked in them while data moves.
bool isBlockingCopyCall(std::string_view name);

// The one definition of a memory operation that blocks the host thread for the whole of its call, which the
// blocking_copies finding lists and the verdict counts as host time in blocking copies. A memcpy made by API
// blocks when the call is synchronous or when either side (SRC_KIND, DST_KIND: ENUM_CUDA_MEM_KIND ids) is
// pageable host memory, which the driver stages, so cudaMemcpyAsync does not return early either.
bool copyBlocksHost(std::string_view api, int64_t srcKind, int64_t dstKind);
// A memset made by API blocks when the call is synchronous and its memory (MEM_KIND) is pinned or managed:
// the memsets CUDA makes blocking.
bool memsetBlocksHost(std::string_view api, int64_t memKind);

}  // namespace gpuscope
