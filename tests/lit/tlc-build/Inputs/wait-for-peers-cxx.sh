# A stand-in host compiler for host-compile-jobs.py: records that it
# started (a file named after its process in $1), waits up to 5 s until
# $2 compilers have started, logs how many it saw, then runs c++ on the
# rest of its arguments. Compilations run one after another each see 1.
dir=$1 want=$2
shift 2
touch "$dir/$$"
tries=0
while [ "$(ls "$dir" | wc -l)" -lt "$want" ] && [ $tries -lt 50 ]; do
  sleep 0.1
  tries=$((tries + 1))
done
echo "saw $(ls "$dir" | wc -l) of $want" >> "$dir.log"
exec c++ "$@"
