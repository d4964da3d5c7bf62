# The ping-pong barrier protocol of tlc.ws_pingpong attention (two consumer
# warpgroups, 4 warps each), every interleaving: barriers count warp
# arrivals and complete at 8; RACE: a warp reads O_shared before all 8
# stored it; REARRIVE: a warp arrives on a barrier again before the
# generation it arrived on completed (unpredictable per PTX).
# Usage: python3 pingpong_model.py ITERATIONS
# exhaustive interleavings of 8 warps on hardware-style named barriers (count arrivals, complete at 8 warps)
import sys
N=int(sys.argv[1]) if len(sys.argv)>1 else 2
def prog(wg):
    p=[('S',1)]
    if wg==1: p.append(('A',2))
    for _ in range(N):
        if wg==0: p+= [('S',2),('A',3),('S',2),('A',3)]
        else: p+= [('S',3),('A',2),('S',3),('A',2)]
    if wg==0: p.append(('S',2))
    p+=[('S',1),('W',0),('S',1),('R',0)]
    return p
progs=[prog(w//4) for w in range(8)]
from collections import deque
# state: pcs tuple, waiting tuple(bool), counts dict per bar (tuple of 16), stored set bitmask
start=(tuple([0]*8),tuple([False]*8),tuple([0]*4),0,tuple([0]*32))
seen=set([start]);q=deque([start]);bad=0
while q:
    pcs,wait,cnt,stored,pend=q.popleft()
    for w in range(8):
        if wait[w] or pcs[w]>=len(progs[w]): continue
        op,b=progs[w][pcs[w]]
        pcs2=list(pcs);wait2=list(wait);cnt2=list(cnt);st=stored;pend2=list(pend)
        if op=='W': st|=1<<w; pcs2[w]+=1
        elif op=='R':
            if st!=255: bad+=1; print("RACE", pcs, wait); sys.exit()
            pcs2[w]+=1
        else:
            if pend2[w*4+b]: print("REARRIVE", w, b); sys.exit()
            cnt2[b]+=1
            if op=='A': pend2[w*4+b]=1
            if op=='S': wait2[w]=True
            else: pcs2[w]+=1
            if cnt2[b]==8:
                cnt2[b]=0
                for v in range(8): pend2[v*4+b]=0
                # release all waiting at bar b
                for v in range(8):
                    if wait2[v] and progs[v][pcs2[v]][1]==b:
                        wait2[v]=False; pcs2[v]+=1
        s=(tuple(pcs2),tuple(wait2),tuple(cnt2),st,tuple(pend2))
        if s not in seen: seen.add(s); q.append(s)
print("states",len(seen),"no race")
