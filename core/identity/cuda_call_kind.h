#pragma once
// Which CUDA API calls make the host thread wait for the GPU: the verdict counts the time a thread
// spends in them as synchronization, and the rest of its CUDA API time as API overhead.
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

}  // namespace gpuscope
