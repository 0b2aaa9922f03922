# make_awards_csv.py writes awards.csv, the 400-award fixture of the award_data tests:
# random but fixed (seed 6) rows in the 42-column bulk shape with nulls, quoted commas and
# quotes, multi-line abstracts, non-ASCII text, a KELVIN SIGN and a LONG S (case-folding
# edge cases). Run from this directory: /usr/bin/python3 make_awards_csv.py
import csv, random, io
random.seed(6)
H = "Company, Award Title, Agency, Branch, Phase, Program, Agency Tracking Number, Contract, Proposal Award Date, Contract End Date, Solicitation Number, Solicitation Year, Solicitation Close Date, Proposal Receipt Date, Date of Notification, Topic Code, Award Year, Award Amount, UEI, Duns, HUBZone Owned, Socially and Economically Disadvantaged, Woman Owned, Number Employees, Company Website, Address1, Address2, City, State, Zip, Abstract, Contact Name, Contact Title, Contact Phone, Contact Email, PI Name, PI Title, PI Phone, PI Email, RI Name, RI POC Name, RI POC Phone".split(", ")
agencies = [("Department of Defense",48),("Department of Health and Human Services",23),("National Aeronautics and Space Administration",9),("Department of Energy",8),("National Science Foundation",7),("Department of Agriculture",2),("Environmental Protection Agency",1)]
branches = {"Department of Defense":["Air Force","Army","Navy","Missile Defense Agency"],"Department of Health and Human Services":["National Institutes of Health",""]}
companies = ["Acme Photonics LLC","Blue Ridge Sensors, Inc.","Café Robotics Inc","Delta \"Quantum\" Labs","Eagle Lidar Systems","Fjord Materials Corp","Great Lakes BioTech","Helix Analytics","Ionic Power Inc","Juniper Aerospace","Keystone Optics","Lumen Devices","Mesa Thermal","Nimbus Software, LLC","Orbital Micro Systems","Pioneer Coatings","Quasar Imaging","Redwood Genomics","Summit Acoustics","Titan Composites"]
states = ["California","Massachusetts","Virginia","Texas","Maryland","Colorado","Ohio","New York",""]
words = "the a of and to sensor lidar LiDAR imaging laser radar novel system propose develop phase prototype data quantum battery material coating detection autonomous vehicle spectral optical fiber thermal".split()
topics = ["AF21-001","N22-A01","A23-017","NIH-R43","DOE-33a","NSF-ST",""]
def date(y):
    if random.random()<0.4: return ""
    return "%04d-%02d-%02d"%(y, random.randint(1,12), random.randint(1,28))
rows=[]
for i in range(400):
    ag = random.choices([a for a,_ in agencies],[w for _,w in agencies])[0]
    br = random.choice(branches.get(ag,[""]))
    ph = "Phase I" if random.random()<0.69 else "Phase II"
    prog = "SBIR" if random.random()<0.9 else "STTR"
    y = random.randint(2005,2024)
    amt = random.choice(["", "0", str(round(random.uniform(50e3,150e3),2)) if ph=="Phase I" else str(round(random.uniform(5e5,1.6e6),2))]) if random.random()<0.08 else (str(round(random.uniform(50e3,150e3),2)) if ph=="Phase I" else str(round(random.uniform(5e5,1.6e6),2)))
    n = random.randint(5,40)
    ab = " ".join(random.choice(words) for _ in range(n)).capitalize()
    r = random.random()
    if r<0.08: ab = ""
    elif r<0.12: ab = "N/A"
    elif r<0.14: ab += "\nSecond line with Ünïcödé and straße."
    elif r<0.15: ab += " Measured in \u212Aelvin by a \u017Fensor."  # Kelvin sign and long s
    elif r<0.16: ab += ' She said ""lidar"" twice.'
    emp = "" if random.random()<0.15 else str(random.choice([0,1,5,12,50,120,499,9999]))
    row = {h:"" for h in H}
    row.update({"Company":random.choice(companies),"Award Title":"Project %d: %s %s"%(i, random.choice(words), random.choice(words)),
      "Agency":ag,"Branch":br,"Phase":ph,"Program":prog,"Agency Tracking Number":"T%05d"%random.randint(1,300),
      "Contract":random.choice(["","C-%d"%i]),"Proposal Award Date":date(y),"Contract End Date":date(y+1),
      "Solicitation Number":random.choice(["","SOL-%d"%y]),"Solicitation Year":random.choice(["",str(y-1)]),
      "Topic Code":random.choice(topics),"Award Year":str(y),"Award Amount":amt,"UEI":random.choice(["","U%09d"%i]),
      "HUBZone Owned":random.choices(["Y","N","U",""],[2,80,10,8])[0],"Socially and Economically Disadvantaged":random.choices(["Y","N","U"],[7,85,8])[0],
      "Woman Owned":random.choices(["Y","N","U"],[10,82,8])[0],"Number Employees":emp,"City":random.choice(["Boston","Austin","","San José"]),
      "State":random.choice(states),"Zip":random.choice(["","02139","78701"]),"Abstract":ab,"PI Name":random.choice(["","Dr. Ada Lovelace","Grace Hopper"])})
    rows.append(row)
out = io.StringIO()
w = csv.DictWriter(out, fieldnames=H, lineterminator="\n")
w.writeheader()
for r in rows: w.writerow(r)
open("awards.csv","w",encoding="utf-8").write(out.getvalue())
