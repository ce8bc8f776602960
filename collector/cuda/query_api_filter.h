#pragma once
// The CUDA API functions gpuscope does not trace: exactly those Nsight Systems' default CUDA trace turns
// off (the list and how it was found are in query_api_filter.cpp), mostly cheap getters (cudaGetDevice,
// cudaGetLastError, cuCtxGetCurrent, cuStreamGetCtx, ...) that frameworks call several times per operation
// and whose records would cost the program time for nothing a user looks at.

namespace gpuscope::cuda {

// Tells CUPTI not to make activity records of the query functions; called after the RUNTIME and
// DRIVER activity kinds are enabled (enabling a kind again would undo it). Returns how many it
// could turn off.
int leaveOutQueryApiCalls();

}  // namespace gpuscope::cuda
