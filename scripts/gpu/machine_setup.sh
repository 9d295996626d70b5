# machine_setup.sh — sourced THERE (the lent GPU machine, repository root, .gpu/ carried; see
# pack.sh) by the scripts that run the pack: registers the NVIDIA OpenCL driver, whose ICD library
# the image has but does not list, unpacks the pack's libraries where pack.sh compressed them, and
# puts them on the library path.
#   . scripts/gpu/machine_setup.sh
mkdir -p /etc/OpenCL/vendors
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
[ -d .gpu/lib ] || tar -C .gpu -xJf .gpu/lib.tar.xz
export LD_LIBRARY_PATH="$PWD/.gpu/lib:${LD_LIBRARY_PATH:-}"
