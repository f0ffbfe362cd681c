# Sourced by the example scripts. instant FILE: the absolute time of a Chrome JSON trace's first
# ProfilerStep#2, in ns since the epoch (baseTimeNanoseconds + ts), in shell integers (awk's
# doubles would round it).
instant() {  # FILE: the first ProfilerStep#2's absolute time
    base=$(tr '\n' ' ' <"$1" | grep -o '"baseTimeNanoseconds": *[0-9]*' | grep -o '[0-9]*$')
    ts=$(tr '\n' ' ' <"$1" |
        grep -o '"name": *"ProfilerStep#2", *"pid": *[0-9]*, *"tid": *[0-9]*, *"ts": *[0-9.]*' |
        head -n 1 | grep -o '[0-9.]*$')
    us=${ts%.*}
    frac=$(printf '%s000' "${ts#*.}" | cut -c1-3)
    [ "$us" != "$ts" ] || frac=000
    echo $((base + us * 1000 + 1$frac - 1000))
}
