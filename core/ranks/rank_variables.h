#pragma once
// The environment variables launchers set in each rank's process, first spelling first: torchrun's, Open
// MPI's, PMI's (MPICH, Intel MPI) and Slurm's. Read from nsys's captured environment (rank_identity.cpp) and
// by the recorder in every process it records (collector/inject). Header-only and C strings, so that the
// injection library can use it with getenv.
namespace gpuscope::rank_variables {

inline constexpr const char* kRank[] = {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"};
inline constexpr const char* kLocalRank[] = {"LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                                             "SLURM_LOCALID"};
inline constexpr const char* kWorldSize[] = {"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"};

}  // namespace gpuscope::rank_variables
