# An independent Pyramida implementation (default options only), written from
# the rules in variants/pyramida/README.md without looking at boardlab's code, to check boardlab's counts.
#
#   python3 tools/pyramida_reference.py 5            perft 1..5 from the start
#   python3 tools/pyramida_reference.py div 3 d1-c2  perft 3 split by move, after d1-c2
#   python3 tools/pyramida_reference.py rand N PLIES SEED
#                                                    N random games as JSON lines: the moves
#                                                    played and every position's sorted move list
#                                                    (compare with `boardlab moves pyramida --moves …`)
import sys
from collections import Counter
def exists(f,r): return 1<=f<=21 and 1<=r<=14 and (f+r)%2==1 and (r<5 or (r-3<=f<=25-r))
def name(c): return chr(96+c[0])+str(c[1])
TOP=(11,14)
DIAG=[(1,1),(-1,1),(1,-1),(-1,-1)]
OPP={'W':'b','b':'W'}
def start():
    b={}
    for f in (4,8,12,16,20): b[(f,1)]='W'
    for f in (2,6,10,14,18): b[(f,1)]='b'
    return b
def normal_moves(b,p):
    out=[]
    n=sum(1 for v in b.values() if v==p)
    for c,v in b.items():
        if v!=p: continue
        for dx,dy in DIAG:
            t=(c[0]+dx,c[1]+dy)
            if exists(*t) and t not in b:
                out.append((c,t))
                if n==1:
                    t2=(t[0]+dx,t[1]+dy)
                    if exists(*t2) and t2 not in b: out.append((c,t2))
    return out
def retreats(b,v):
    out=[]; o=b[v]; last=sum(1 for x in b.values() if x==o)==1
    for dx in (1,-1):
        t=(v[0]+dx,v[1]-1)
        if exists(*t) and t not in b:
            out.append(t)
            if last:
                t2=(v[0]+2*dx,v[1]-2)
                if exists(*t2) and t2 not in b: out.append(t2)
    return out
class G:
    def __init__(s):
        s.b=start(); s.side='W'; s.cont=None; s.result=None
        s.hist=Counter(); s.hist[s.key()]+=1
    def key(s): return (frozenset(s.b.items()), s.side, s.cont is not None)
    def moves(s):
        if s.result: return []
        out=[]
        if s.cont:
            out+= [('r',)+m for m in s.cont['moves']]
            if not s.cont['normal']: return out
        out+= [('n',)+m for m in normal_moves(s.b,s.side)]
        if not out: out=[('pass',)]
        return out
    def play(s,m):
        s.b=dict(s.b); mover=s.side
        turn=s.cont['turn'] if s.cont else mover
        incont=s.cont is not None
        s.cont=None
        newcont=None
        if m[0]=='r':
            s.b[m[2]]=s.b.pop(m[1])
        elif m[0]=='n':
            fr,to=m[1],m[2]
            st=s.b.pop(fr)
            if to==TOP: pass
            else:
                s.b[to]=st
                if to[1]>fr[1]: newcont=s.attack(mover,fr,to)
        if newcont: s.cont=newcont; s.side=newcont['player']
        else: s.side=OPP[turn]
        if not any(v==mover for v in s.b.values()):
            s.result=('win',mover); return
        k=s.key(); s.hist[k]+=1
        if s.hist[k]>=3: s.result=('win',OPP[mover])
    def attack(s,me,fr,to):
        b=s.b; en=OPP[me]; f=to[0]
        col=[(f,r) for r in range(1,15) if exists(f,r)]
        mine=[];theirs=[]
        for c in col:
            who = None if c==to else (me if c==fr else b.get(c))
            if who==me: mine.append(c)
            elif who==en: theirs.append(c)
        column='none'
        if len(mine)==1 and len(theirs)==1 and mine[0][1]<theirs[0][1] and mine[0]!=fr:
            tgt=[c for c in col if c[1]<theirs[0][1] and c not in b]
            if tgt:
                b[tgt[0]]=b.pop(theirs[0]); return None
            column='failed'
        vs=[(to[0]+dx,to[1]+dy) for dx,dy in DIAG]
        vs=[v for v in vs if b.get(v)==en]
        choices=[];blocked=0
        for v in sorted(vs,key=name):
            rs=retreats(b,v)
            if not rs: blocked+=1
            choices+=[(v,r) for r in rs]
        if not choices:
            if blocked or column=='failed': return {'player':me,'turn':me,'moves':[],'normal':True}
            return None
        if len(choices)==1 and blocked==0:
            b[choices[0][1]]=b.pop(choices[0][0]); return None
        return {'player':me,'turn':me,'moves':choices,'normal':blocked>0}
    def snap(s): return (s.b,s.side,s.cont,s.result,s.hist.copy())
    def restore(s,x): s.b,s.side,s.cont,s.result,s.hist=x
def perft(g,d):
    if d==0: return 1
    n=0
    for m in g.moves():
        x=g.snap(); g.play(m); n+=perft(g,d-1); g.restore(x)
    return n
g=G()
def mtext(m):
    if m[0]=='pass': return 'pass'
    return name(m[1])+'-'+name(m[2])
def divide(g,d,prefix):
    for m in g.moves():
        x=g.snap(); g.play(m); print(prefix+mtext(m), perft(g,d-1)); g.restore(x)

def randgames(n, plies, seed):
    import random, json
    rnd=random.Random(seed)
    for gi in range(n):
        g=G(); seq=[]; lists=[]
        for k in range(plies):
            ms=g.moves()
            lists.append(sorted(mtext(m) for m in ms))
            if not ms: break
            m=rnd.choice(ms); seq.append(mtext(m)); g.play(m)
        res = g.result
        print(json.dumps({'moves':seq,'lists':lists,'result':res}))

if sys.argv[1]=="rand":
    randgames(int(sys.argv[2]),int(sys.argv[3]),int(sys.argv[4]))
elif sys.argv[1]=="div":
    for t in sys.argv[3:]:
        mm=[m for m in g.moves() if mtext(m)==t][0]; g.play(mm)
    divide(g,int(sys.argv[2]),"")
else:
    for d in range(1,int(sys.argv[1])+1): print(d,perft(g,d),flush=True)

